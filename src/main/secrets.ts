// The LLM API key, encrypted with the OS keychain through safeStorage and kept in a file under userData.
import { safeStorage } from 'electron';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { CuratorError } from '../shared/errors';
import type { SecretStore } from '../core/context';

export function safeStorageSecrets(userDataDir: string): SecretStore {
  const file = path.join(userDataDir, 'llm-api-key.bin');
  return {
    async getApiKey() {
      if (!existsSync(file)) return null;
      if (!safeStorage.isEncryptionAvailable()) return null;
      return safeStorage.decryptString(readFileSync(file));
    },
    async setApiKey(key) {
      if (key === null) {
        rmSync(file, { force: true });
        return;
      }
      if (!safeStorage.isEncryptionAvailable()) {
        throw new CuratorError(
          'UNAVAILABLE',
          'This system has no keychain to encrypt the API key with; set SKILL_CURATOR_API_KEY in the environment instead.',
        );
      }
      mkdirSync(userDataDir, { recursive: true });
      writeFileSync(file, safeStorage.encryptString(key), { mode: 0o600 });
    },
    // Git tokens: encrypted the same way, one file per name.
    async getSecret(name) {
      const named = namedFile(userDataDir, name);
      if (!existsSync(named) || !safeStorage.isEncryptionAvailable()) return null;
      return safeStorage.decryptString(readFileSync(named));
    },
    async setSecret(name, value) {
      const named = namedFile(userDataDir, name);
      if (value === null) return void rmSync(named, { force: true });
      if (!safeStorage.isEncryptionAvailable()) {
        throw new CuratorError('UNAVAILABLE', 'This system has no keychain to encrypt the token with.');
      }
      mkdirSync(path.dirname(named), { recursive: true });
      writeFileSync(named, safeStorage.encryptString(value), { mode: 0o600 });
    },
  };
}

function namedFile(userDataDir: string, name: string): string {
  return path.join(userDataDir, 'secrets', `${name.replace(/[^A-Za-z0-9_.-]/g, '_')}.bin`);
}

// Installs a profile into an agent's skills folder: where, how (symlink or copy), what would change, and uninstall.
import { useState } from 'react';
import type { InstallMode, InstallResult, InstallVerifyResult, UninstallResult } from '../../../shared/api';
import { ErrorNote } from '../app/ErrorNote';
import { useClient } from '../app/context';
import { useAction, useApi } from '../app/use-api';

const targetLabels: Record<string, string> = {
  claude: 'Claude Code (user)',
  'claude-project': 'Claude Code (project)',
  codex: 'Codex',
  agents: 'Agent Skills (.agents/skills)',
  folder: 'Another folder…',
};

function ChangesTable({ result }: { result: InstallResult }) {
  return (
    <>
      <p className="small" data-testid="install-summary">
        {result.dryRun ? 'Would change' : 'Installed into'} <code>{result.targetDir}</code> ({result.mode})
      </p>
      <table className="table" aria-label="Install changes">
        <tbody>
          {result.changes.map((c) => (
            <tr key={c.folder}>
              <td>
                <span className={`badge install-${c.action}`}>{c.action}</span>
              </td>
              <td>{c.folder}</td>
              <td className="muted small">{c.reason ?? ''}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {result.changes.some((c) => c.action === 'clash') && (
        <p className="small warn-text">
          Clashes are left as they are: nothing in the target was overwritten.
        </p>
      )}
      {result.missing.map((m) => (
        <p key={`${m.name}/${m.file}`} className="small muted">
          Not written: {m.name}/{m.file} — {m.reason}
        </p>
      ))}
    </>
  );
}

/** What `install verify` found: each entry that drifted from the lock, in words. */
function VerifySummary({ result }: { result: InstallVerifyResult }) {
  const drifted = result.entries.filter((e) => e.drift);
  const moved = result.entries.filter((e) => e.library !== 'same');
  return (
    <div className="small" data-testid="verify-summary">
      {!result.locked
        ? `No lock file in ${result.targetDir}: nothing installed by Skill Curator to verify.`
        : drifted.length === 0
          ? `Clean: ${result.entries.length} skill(s) as the lock says.`
          : `Drift in ${drifted.length} of ${result.entries.length} skill(s).`}
      {drifted.map((e) => (
        <p key={e.folder} className="warn-text">
          {e.folder}:{' '}
          {[
            e.folderMissing
              ? 'the folder is gone'
              : e.missing.length
                ? `missing ${e.missing.join(', ')}`
                : '',
            e.changed.length ? `changed ${e.changed.join(', ')}` : '',
            e.extra.length ? `extra ${e.extra.join(', ')}` : '',
            e.problem ?? '',
          ]
            .filter(Boolean)
            .join('; ')}
        </p>
      ))}
      {moved.map((e) => (
        <p key={`library-${e.folder}`} className="muted">
          {e.folder}:{' '}
          {e.library === 'gone' ? 'no longer in the library' : 'the library moved on since install'}
        </p>
      ))}
      {result.unmanaged.length > 0 && (
        <p className="muted">Not installed by Skill Curator: {result.unmanaged.join(', ')}</p>
      )}
    </div>
  );
}

export function InstallPanel({ profile }: { profile: string }) {
  const client = useClient();
  const [project, setProject] = useState('');
  const projectDir = project.trim() || undefined;
  const targets = useApi('install.targets', { projectDir });
  const action = useAction();
  const [target, setTarget] = useState('claude');
  const [folder, setFolder] = useState('');
  const [mode, setMode] = useState<InstallMode>('symlink');
  const [result, setResult] = useState<InstallResult | null>(null);
  const [removed, setRemoved] = useState<UninstallResult | null>(null);
  const [verified, setVerified] = useState<InstallVerifyResult | null>(null);
  const chosen = target === 'folder' ? folder.trim() : target;
  const dirOf = targets.data?.find((t) => t.target === target)?.dir;

  const install = async (dryRun: boolean) => {
    setRemoved(null);
    setVerified(null);
    const r = await action.run(() =>
      client.call('install.run', { profile, target: chosen, mode, dryRun, projectDir }),
    );
    if (r) setResult(r);
  };
  const uninstall = async () => {
    setResult(null);
    setVerified(null);
    const r = await action.run(() =>
      client.call('install.uninstall', { profile, target: chosen, projectDir }),
    );
    if (r) setRemoved(r);
  };
  const verify = async () => {
    const r = await action.run(() => client.call('install.verify', { target: chosen, projectDir }));
    if (r) setVerified(r);
  };

  return (
    <section className="panel" aria-label="Install">
      <h2>Install into an agent</h2>
      <div className="row wrap">
        <select value={target} onChange={(e) => setTarget(e.target.value)} aria-label="Target">
          {Object.entries(targetLabels).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
        {target === 'folder' ? (
          <input
            className="grow"
            placeholder="/absolute/path/to/skills"
            value={folder}
            onChange={(e) => setFolder(e.target.value)}
            aria-label="Target folder"
          />
        ) : (
          <code className="small muted">{dirOf}</code>
        )}
      </div>
      {(target === 'claude-project' || target === 'agents') && (
        <input
          className="grow"
          placeholder="Project folder (default: where the app was started)"
          value={project}
          onChange={(e) => setProject(e.target.value)}
          aria-label="Project folder"
        />
      )}
      <div className="row wrap">
        <label className="check">
          <input type="radio" name="mode" checked={mode === 'symlink'} onChange={() => setMode('symlink')} />
          symlink
        </label>
        <label className="check">
          <input type="radio" name="mode" checked={mode === 'copy'} onChange={() => setMode('copy')} />
          copy
        </label>
        <span className="spacer" />
        <button className="ghost" disabled={!chosen || action.busy} onClick={() => install(true)}>
          Preview changes
        </button>
        <button disabled={!chosen || action.busy} onClick={() => install(false)}>
          Install
        </button>
        <button className="ghost" disabled={!chosen || action.busy} onClick={uninstall}>
          Uninstall
        </button>
        <button className="ghost" disabled={!chosen || action.busy} onClick={verify}>
          Verify
        </button>
      </div>
      <p className="muted small">
        A lock file in the folder records what was installed from which library content; uninstall removes
        exactly that. Skills already there are never overwritten.
      </p>
      <ErrorNote error={action.error} onDismiss={action.clearError} />
      {result && <ChangesTable result={result} />}
      {verified && <VerifySummary result={verified} />}
      {removed && (
        <div className="small" data-testid="uninstall-summary">
          Removed from <code>{removed.targetDir}</code>: {removed.removed.join(', ') || 'nothing'}
          {removed.kept.map((k) => (
            <p key={k.folder} className="muted">
              Kept {k.folder}: {k.reason}
            </p>
          ))}
        </div>
      )}
    </section>
  );
}

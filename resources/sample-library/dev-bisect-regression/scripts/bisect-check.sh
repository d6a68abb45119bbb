#!/bin/sh
# Template check for `git bisect run`: 0 = good, 1 = bad, 125 = skip this commit.
# Replace the two commands below with the project's build and its failing test.
npm ci --silent >/dev/null 2>&1 || exit 125
npm run build --silent >/dev/null 2>&1 || exit 125
if npx vitest run test/the-failing.test.ts >/dev/null 2>&1; then
  exit 0
else
  exit 1
fi

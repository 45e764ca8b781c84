#!/usr/bin/env bash
# What real MCP clients show with Pica connected (issue 19), over stdio and streamable HTTP,
# and how long each client's `mcp list` takes. Output: docs/mcp.md, "What the clients show".
#
#   bash docs/measure/mcp_clients.sh [PREFIX]      # PREFIX: where the clients live (/tmp/mcpclients)
#
# REV=COMMIT (HEAD) the Pica measured: that commit, laid out as `pip install` would (the package
# map of its pyproject.toml) and run by this machine's python3 with its installed dependencies, so
# uncommitted work in the tree is not measured; REV=worktree measures the installed `pica` as it is.
# REPEAT=N (3) timed runs of each `mcp list`; CORPUS=DIR (../shared/corpus/documents/md) what the
# small Pica home indexes.
#
# Why it is built this way:
# - The clients come from the npm registry at pinned versions, so a re-run measures the same
#   clients and only Pica changes. npm on Node 20 would otherwise pick older releases (the newest
#   Inspector and Claude Code declare Node >= 22 but run on 20), so the versions are explicit.
# - Every client runs with a throwaway HOME under PREFIX: nothing reads or writes the real
#   ~/.claude.json, ~/.codex or ~/.gemini, and each starts from a fresh configuration.
# - Everything after the install runs in a network namespace of its own (`unshare -n`) with only
#   the loopback up: the clients and Pica can reach 127.0.0.1 and nothing else, so a client that
#   needs a login or the network says so here instead of quietly using it. HF_HUB_OFFLINE=1 too.
# - Each client/transport pair is measured in a home of its own holding just that one server,
#   so a `mcp list` time is that transport's start-up plus the client's own; the "none" row (no
#   server registered) is the client's own cost, to subtract.
set -euo pipefail

PREFIX=${1:-${PREFIX:-/tmp/mcpclients}}
REPEAT=${REPEAT:-3}
REPO=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
CORPUS=${CORPUS:-$REPO/../shared/corpus/documents/md}

# Pinned: the newest of each on the npm registry when this was written (2026-12).
PACKAGES=(
  "@modelcontextprotocol/inspector@2.12.0"
  "@anthropic-ai/claude-code@2.1.332"
  "@openai/codex@0.171.0"
  "@google/gemini-cli@0.61.0"
)

# --- 1. Install (outside the namespace: the npm registry is the only network it needs) ---------
if [[ -z "${PICA_MCP_CLIENTS_INNER:-}" ]]; then
  missing=()
  for spec in "${PACKAGES[@]}"; do
    name=${spec%@*} version=${spec##*@}
    have=$(node -p "require('$PREFIX/node_modules/$name/package.json').version" 2>/dev/null || true)
    [[ "$have" == "$version" ]] || missing+=("$spec")
  done
  if ((${#missing[@]})); then
    echo "installing into $PREFIX: ${missing[*]}" >&2
    mkdir -p "$PREFIX"
    # Install scripts are not needed: each CLI ships its binary or bundle in the package itself.
    npm install --prefix "$PREFIX" --no-fund --no-audit --ignore-scripts --loglevel=error \
      "${PACKAGES[@]}" >&2
  fi
  # Re-run this script inside a network namespace with only 127.0.0.1 (root: `unshare -n`;
  # otherwise a user namespace maps us to root inside it).
  ns=(unshare -n)
  [[ $(id -u) == 0 ]] || ns=(unshare -rn)
  if "${ns[@]}" true 2>/dev/null; then
    exec "${ns[@]}" env PICA_MCP_CLIENTS_INNER=netns bash "${BASH_SOURCE[0]}" "$PREFIX"
  fi
  echo "warning: cannot make a network namespace here; running WITHOUT network isolation" >&2
  export PICA_MCP_CLIENTS_INNER=none
fi

if [[ "$PICA_MCP_CLIENTS_INNER" == netns ]]; then
  ip link set lo up 2>/dev/null || python3 - <<'EOF' || true
import fcntl, socket, struct
s = socket.socket(); ifr = struct.pack("16sH", b"lo", 0)
flags = struct.unpack("16sH", fcntl.ioctl(s, 0x8913, ifr))[1]        # SIOCGIFFLAGS
fcntl.ioctl(s, 0x8914, struct.pack("16sH", b"lo", flags | 1))       # SIOCSIFFLAGS, IFF_UP
EOF
  PORT=8765        # a fresh namespace: the documented default port is free
else
  PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
fi

# --- 2. A small Pica home -----------------------------------------------------------------------
BIN=$PREFIX/node_modules/.bin
export HF_HUB_OFFLINE=1 PICA_WATCH=0
WORK=$(mktemp -d /tmp/pica-mcp-clients.XXXXXX)
export PICA_HOME=$WORK/pica-home
SERVER_PID=
cleanup() {
  if [[ -n "$SERVER_PID" ]] && kill -0 "$SERVER_PID" 2>/dev/null; then
    kill "$SERVER_PID" 2>/dev/null || true
    wait "$SERVER_PID" 2>/dev/null || true
  fi
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

REV=${REV:-HEAD}
if [[ $REV == worktree ]]; then
  # The console script itself, not a version manager's shim (a shim's start-up is not Pica's).
  PICA=$(python3 -c 'import os, sys; p = os.path.join(os.path.dirname(sys.executable), "pica"); print(p if os.path.exists(p) else "")')
  [[ -n "$PICA" ]] || PICA=$(command -v pica)
  MEASURED="the working tree as installed$(git -C "$REPO" diff --quiet HEAD -- pica kernel stages recipes configs 2>/dev/null || echo ', with uncommitted changes'), on $(git -C "$REPO" rev-parse --short HEAD)"
else
  # The commit's files, its packages linked where pyproject.toml's package-dir puts them, and a
  # `pica` console script that puts them first on sys.path: the clients start it as they would
  # an installed pica, whatever environment they pass.
  mkdir -p "$WORK/src" "$WORK/site" "$WORK/bin"
  git -C "$REPO" archive "$REV" | tar -x -C "$WORK/src"
  python3 - "$WORK/src" "$WORK/site" <<'EOF'
import os, sys, tomllib
src, site = sys.argv[1:]
dirs = tomllib.load(open(os.path.join(src, "pyproject.toml"), "rb"))["tool"]["setuptools"]["package-dir"]
for pkg, folder in sorted(dirs.items(), key=lambda kv: kv[0].count(".")):
    os.symlink(os.path.join(src, folder), os.path.join(site, *pkg.split(".")))
EOF
  PICA=$WORK/bin/pica
  printf '#!%s\nimport sys\nsys.path.insert(0, %s)\nfrom pica.cli import main\nsys.exit(main())\n' \
    "$(python3 -c 'import sys; print(sys.executable)')" "'$WORK/site'" >"$PICA"
  chmod +x "$PICA"
  MEASURED="commit $(git -C "$REPO" rev-parse --short "$REV")"
fi

[[ -d "$CORPUS" ]] || CORPUS=$REPO/docs      # a clone without shared/: index the docs instead
"$PICA" add "$CORPUS" --name docs >/dev/null
"$PICA" index docs >/dev/null 2>&1           # only this collection, never the machine's transcripts

now() { date +%s.%N; }
secs() { python3 -c "import sys; print(f'{float(sys.argv[2]) - float(sys.argv[1]):.2f}')" "$1" "$2"; }
median() { python3 -c "import statistics, sys; print(f'{statistics.median(map(float, sys.argv[1:])):.2f}')" "$@"; }

echo "# MCP clients with Pica"
echo
echo "Pica: $MEASURED ($("$PICA" --version 2>&1)); \$WORK is a temporary folder, removed at the end"
echo "node $(node --version), network: $([[ $PICA_MCP_CLIENTS_INNER == netns ]] && echo 'own namespace, loopback only' || echo 'NOT isolated')," \
  "Pica home: $(ls "$CORPUS" | wc -l) entries of ${CORPUS#"$REPO"/../} as 'docs', $REPEAT timed runs each"
echo

# --- 3. Pica over HTTP, started here, stopped by the trap ---------------------------------------
# Its own HOME too, so it watches and names no real transcripts.
mkdir -p "$WORK/home-server"
t0=$(now)
HOME=$WORK/home-server "$PICA" serve --port "$PORT" --no-watch >"$WORK/serve.log" 2>&1 &
SERVER_PID=$!
for _ in $(seq 300); do
  (exec 3<>"/dev/tcp/127.0.0.1/$PORT") 2>/dev/null && break
  kill -0 "$SERVER_PID" 2>/dev/null || { cat "$WORK/serve.log"; exit 1; }
  sleep 0.1
done
URL=http://127.0.0.1:$PORT/mcp
echo "## pica serve --port $PORT --no-watch: listening after $(secs "$t0" "$(now)") s"
echo

# The stdio start-up with no client in between: spawn, initialize, tools/list.
echo "## pica serve --stdio with no client (spawn, initialize, tools/list, close stdin), $REPEAT runs"
echo
echo '```'
for _ in $(seq "$REPEAT"); do
  HOME=$WORK/home-server python3 - "$PICA" <<'EOF'
import json, subprocess, sys, time
t0 = time.perf_counter()
p = subprocess.Popen([sys.argv[1], "serve", "--stdio"], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                     stderr=subprocess.PIPE, text=True)
def ask(msg):
    p.stdin.write(json.dumps(msg) + "\n"); p.stdin.flush()
    return json.loads(p.stdout.readline()) if "id" in msg else None
ask({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18",
     "capabilities": {}, "clientInfo": {"name": "bare", "version": "0"}}})
t1 = time.perf_counter()
ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
tools = ask({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})["result"]["tools"]
t2 = time.perf_counter()
p.stdin.close(); rc = p.wait(30)        # a client closes stdin and waits for the server to exit
t3 = time.perf_counter()
err = p.stderr.read().strip()
print(f"initialize {t1 - t0:.2f} s, tools/list {t2 - t0:.2f} s ({len(tools)} tools),"
      f" exit {t3 - t2:.2f} s after stdin closed (code {rc})"
      + (f"; stderr: {err[:300]!r}" if err else "; nothing on stderr"))
EOF
done
echo '```'
echo

SUMMARY=()
# run LABEL CMD...: print the command and what it printed (stdout and stderr), its exit code.
run() {
  local label=$1; shift
  echo "\$ ${label//$WORK/\$WORK}"
  local rc=0
  timeout 180 "$@" >"$WORK/out" 2>&1 || rc=$?
  sed -e "s#$WORK#\$WORK#g" "$WORK/out"
  ((rc == 0)) || echo "(exit $rc)"
  return 0
}
# timed CLIENT TRANSPORT LABEL CMD...: REPEAT runs of a `mcp list`, the first one's output shown.
timed() {
  local client=$1 transport=$2 label=$3; shift 3
  local times=() rc t0 state
  for i in $(seq "$REPEAT"); do
    rc=0; t0=$(now)
    timeout 180 "$@" >"$WORK/out.$i" 2>&1 || rc=$?
    times+=("$(secs "$t0" "$(now)")")
  done
  echo "\$ ${label//$WORK/\$WORK}"
  if [[ $(head -c1 "$WORK/out.1") == "{" ]]; then echo "(JSON, $(wc -c <"$WORK/out.1") bytes: summarized below)"
  else sed -e "s#$WORK#\$WORK#g" "$WORK/out.1"; fi
  ((rc == 0)) || echo "(exit $rc)"
  echo "(wall clock: ${times[*]} s)"
  if grep -qiE '(✔|✓).*connected|"tools"' "$WORK/out.1"; then state=connected
  elif [[ $transport == none ]]; then state=-
  elif grep -qE '\benabled\b' "$WORK/out.1"; then state="listed, not checked"
  else state="NOT connected"; fi
  SUMMARY+=("| $client | $transport | $state | ${times[*]} | $(median "${times[@]}") |")
}

# What a client asked of the HTTP server during its timed runs, counted (from uvicorn's log).
mark() { wc -l <"$WORK/serve.log"; }
requests_since() {
  echo "(requests the server saw during the $REPEAT runs:)"
  tail -n +"$(($1 + 1))" "$WORK/serve.log" | grep -oE '"(GET|POST|DELETE) [^"]*" [0-9]+( [A-Za-z ]+)?' | sort | uniq -c || true
}

# A fresh HOME for one client and one transport, with the working folder inside it.
fresh() { rm -rf "$PREFIX/home-$1"; mkdir -p "$PREFIX/home-$1/work"; echo "$PREFIX/home-$1"; }
# Pica's stdio entry for every client: its home and settings in the server's env block.
STDIO_ENV=(PICA_HOME="$PICA_HOME" PICA_WATCH=0 HF_HUB_OFFLINE=1)

# --- 4. MCP Inspector CLI -----------------------------------------------------------------------
v=$(HOME=$(fresh inspector) "$BIN/mcp-inspector" --version 2>&1 | tail -1)
echo "## MCP Inspector CLI $v"
echo
insp_env=(); for e in "${STDIO_ENV[@]}"; do insp_env+=(-e "$e"); done
# The tool list is long: names, titles and annotations are shown; the whole JSON is in PREFIX.
summarize_tools() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
for t in d["tools"]:
    a = t.get("annotations") or {}
    flags = ", ".join(k.replace("Hint", "") for k, v in sorted(a.items()) if v is True and k.endswith("Hint"))
    params = len(t["inputSchema"].get("properties", {}))
    print("%-14s %-32s %2d params; %s" % (t["name"], repr(t.get("title", "")), params, flags or "-"))
' "$1" 2>&1 || head -c 2000 "$1"
}
summarize_call() {
  python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
s = d.get("structuredContent") or json.loads(d["content"][0]["text"])
print("isError:", d.get("isError", False))
for h in s.get("hits", []):
    print(" ", h["id"], h["lines"], h["source"], h["trust"], round(h["score"], 4))
for k in ("warnings", "notes"):
    for w in s.get(k) or []:
        print(f"  {k[:-1]}: {w}")
' "$1" 2>&1 || cat "$1"
}
for transport in stdio http; do
  export HOME=$PREFIX/home-inspector; cd "$HOME/work"
  if [[ $transport == stdio ]]; then target=("${insp_env[@]}" "$PICA" serve --stdio)
  else target=("$URL"); fi
  echo "### $transport"
  echo
  echo '```'
  timed inspector "$transport" "mcp-inspector --cli ${target[*]} --method tools/list" \
    "$BIN/mcp-inspector" --cli "${target[@]}" --method tools/list
  cp "$WORK/out.1" "$PREFIX/inspector-tools-$transport.json"
  summarize_tools "$WORK/out.1"
  echo
  # One search, its hits summarized (the whole answer is in PREFIX).
  lbl="mcp-inspector --cli ${target[*]} --method tools/call --tool-name search --tool-arg 'query=front matter defaults' --tool-arg k=3"
  echo "\$ ${lbl//$WORK/\$WORK}"
  t0=$(now); rc=0
  timeout 180 "$BIN/mcp-inspector" --cli "${target[@]}" --method tools/call --tool-name search \
    --tool-arg "query=front matter defaults" --tool-arg k=3 >"$WORK/out" 2>&1 || rc=$?
  echo "(exit $rc, wall clock $(secs "$t0" "$(now)") s)"
  cp "$WORK/out" "$PREFIX/inspector-search-$transport.json"
  summarize_call "$WORK/out"
  echo '```'
  echo
done

# --- 5. Claude Code -----------------------------------------------------------------------------
v=$(HOME=$(fresh claude) "$BIN/claude" --version 2>&1 | tail -1)
echo "## Claude Code $v"
echo
claude_env=(); for e in "${STDIO_ENV[@]}"; do claude_env+=(-e "$e"); done
for transport in none stdio http; do
  export HOME; HOME=$(fresh claude); cd "$HOME/work"
  echo "### $transport"
  echo
  echo '```'
  case $transport in
    # `-e` takes several values: the name goes first, or `-e` swallows it (see the README form below).
    stdio) run "claude mcp add pica --scope user ${claude_env[*]} -- $PICA serve --stdio" \
             "$BIN/claude" mcp add pica --scope user "${claude_env[@]}" -- "$PICA" serve --stdio ;;
    http) run "claude mcp add --scope user --transport http pica $URL" \
            "$BIN/claude" mcp add --scope user --transport http pica "$URL" ;;
  esac
  m=$(mark)
  timed claude "$transport" "claude mcp list" "$BIN/claude" mcp list
  [[ $transport != http ]] || requests_since "$m"
  echo '```'
  echo
done
echo "### the README's form (options before the name)"
echo
echo '```'
export HOME; HOME=$(fresh claude); cd "$HOME/work"
run "claude mcp add --scope user --env PICA_HOME=$PICA_HOME pica -- $PICA serve --stdio" \
  "$BIN/claude" mcp add --scope user --env "PICA_HOME=$PICA_HOME" pica -- "$PICA" serve --stdio
run "claude mcp list" "$BIN/claude" mcp list
echo '```'
echo

# --- 6. Codex CLI -------------------------------------------------------------------------------
v=$(HOME=$(fresh codex) "$BIN/codex" --version 2>&1 | tail -1)
echo "## Codex CLI $v"
echo
codex_env=(); for e in "${STDIO_ENV[@]}"; do codex_env+=(--env "$e"); done
for transport in none stdio http; do
  export HOME; HOME=$(fresh codex); cd "$HOME/work"
  echo "### $transport"
  echo
  echo '```'
  case $transport in
    stdio) run "codex mcp add pica ${codex_env[*]} -- $PICA serve --stdio" \
             "$BIN/codex" mcp add pica "${codex_env[@]}" -- "$PICA" serve --stdio ;;
    http) run "codex mcp add pica --url $URL" "$BIN/codex" mcp add pica --url "$URL" ;;
  esac
  m=$(mark)
  timed codex "$transport" "codex mcp list" "$BIN/codex" mcp list
  [[ $transport != http ]] || requests_since "$m"
  [[ $transport == none ]] || run "cat ~/.codex/config.toml" cat "$HOME/.codex/config.toml"
  echo '```'
  echo
done

# --- 7. Gemini CLI ------------------------------------------------------------------------------
v=$(HOME=$(fresh gemini) "$BIN/gemini" --version 2>&1 | tail -1)
echo "## Gemini CLI $v"
echo
gemini_env=(); for e in "${STDIO_ENV[@]}"; do gemini_env+=(-e "$e"); done
# Gemini runs no MCP server in a folder the user has not trusted: shown once, then trusted.
trust() { mkdir -p "$HOME/.gemini"; printf '{"%s": "TRUST_FOLDER"}\n' "$HOME/work" >"$HOME/.gemini/trustedFolders.json"; }
for transport in untrusted none stdio http; do
  export HOME; HOME=$(fresh gemini); cd "$HOME/work"
  echo "### $transport"
  echo
  echo '```'
  case $transport in
    untrusted|stdio) run "gemini mcp add --scope user ${gemini_env[*]} pica $PICA serve --stdio" \
                       "$BIN/gemini" mcp add --scope user "${gemini_env[@]}" pica "$PICA" serve --stdio ;;
    http) run "gemini mcp add --scope user --transport http pica $URL" \
            "$BIN/gemini" mcp add --scope user --transport http pica "$URL" ;;
  esac
  if [[ $transport == untrusted ]]; then
    run "gemini mcp list" "$BIN/gemini" mcp list
  else
    trust
    m=$(mark)
    timed gemini "$transport" "gemini mcp list   # in a trusted folder" "$BIN/gemini" mcp list
    [[ $transport != http ]] || requests_since "$m"
  fi
  echo '```'
  echo
done

# --- 8. Summary ---------------------------------------------------------------------------------
echo "## Summary (wall clock of each \`mcp list\`, or the Inspector's tools/list, in seconds)"
echo
echo "| client | transport | Pica | runs | median |"
echo "|---|---|---|---|---|"
printf '%s\n' "${SUMMARY[@]}"
echo
echo "The HTTP server's log: its first line and any line that is not uvicorn's or the SDK's INFO:"
echo '```'
head -1 "$WORK/serve.log"
tail -n +2 "$WORK/serve.log" | grep -vE '^(INFO:|\[[0-9/: ]+\] +INFO| {20})' || true
echo '```'

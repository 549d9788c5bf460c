#!/bin/sh
# Memory across MCP sessions: one session, on a server started with
# `kb mcp --write TOPIC`, remembers a fact; a later session, on a read-only
# server, recalls it with the `search` tool. Each run is one whole MCP
# session over stdio (initialize, then one tool call), as a client such as
# Claude Code holds it; the file written in between is plain Markdown,
# reviewed and committed like any other.
#
#   examples/recipes/mcp-memory.sh remember notes "The staging database is reset every night at 02:00."
#   examples/recipes/mcp-memory.sh recall "When is the staging database reset?"
#
# KB is the kb command and its flags (default: kb). Prints the tool's
# answer; exits 1 when the tool reports an error. Needs jq.
set -euf
KB=${KB:-kb}
mode=${1:?usage: mcp-memory.sh remember TOPIC TEXT | recall QUESTION}
shift

case $mode in
  remember)
    topic=${1:?missing TOPIC}
    shift
    call=$(jq -cn --arg topic "$topic" --arg text "$*" '{name: "remember", arguments: {topic: $topic, text: $text}}')
    server="$KB mcp --write $topic" ;;
  recall)
    call=$(jq -cn --arg query "$*" '{name: "search", arguments: {query: $query, limit: 3}}')
    server="$KB mcp" ;;
  *) echo "mcp-memory.sh: unknown mode $mode" >&2; exit 2 ;;
esac

{
  echo '{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"mcp-memory.sh","version":"1"}}}'
  echo '{"jsonrpc":"2.0","method":"notifications/initialized"}'
  jq -cn --argjson params "$call" '{jsonrpc: "2.0", id: 2, method: "tools/call", params: $params}'
} | $server | jq -nj '[inputs | select(.id == 2)] | .[0] |
  if . == null then "error: the server gave no answer\n" | halt_error(1)
  elif .error then "error: \(.error.message)\n" | halt_error(1)
  else .result.content[0].text, (if .result.isError then "" | halt_error(1) else empty end) end'

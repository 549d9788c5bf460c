#!/bin/sh
# A tool-bridge loop: a model answers QUESTION and may call the `learn` and
# `search` tools; the arguments of each call go to `kb learn --args -` or
# `kb search --args -` and the result goes back to the model, until it
# answers in text (printed on stdout).
#
#   LLM_CMD='my-chat-client' examples/recipes/tool-bridge.sh "How do we release?"
#
# LLM_CMD is a shell command that reads an OpenAI Chat Completions request
# body (JSON: "messages", "tools", and "model" when LLM_MODEL is set) on
# stdin and prints the response body; any client of an OpenAI-compatible
# endpoint fits. The system message is `kb prompt`; the tools are `kb schema`
# and `kb schema --tool search`.
# KB is the kb command and its flags (default: kb). MAX_TURNS bounds the
# model calls (default: 8). Needs jq.
set -euf
: "${LLM_CMD:?set LLM_CMD to a command that sends a Chat Completions request (stdin) and prints the response}"
KB=${KB:-kb}
max_turns=${MAX_TURNS:-8}

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
$KB prompt > "$dir/system"
$KB schema > "$dir/tool"
$KB schema --tool search >> "$dir/tool"
printf '%s' "$*" > "$dir/question"
jq -n --rawfile system "$dir/system" --rawfile question "$dir/question" \
  '[if $system != "" then {role: "system", content: $system} else empty end, {role: "user", content: $question}]' \
  > "$dir/messages"
# `kb schema` prints nothing when there is nothing to learn: no tools then.
jq -s 'map({type: "function", function: .})' "$dir/tool" > "$dir/tools"

turn=0
while [ "$turn" -lt "$max_turns" ]; do
  turn=$((turn + 1))
  jq -n --slurpfile messages "$dir/messages" --slurpfile tools "$dir/tools" --arg model "${LLM_MODEL:-}" \
    '{messages: $messages[0]}
     + (if $model != "" then {model: $model} else {} end)
     + (if ($tools[0] | length) > 0 then {tools: $tools[0]} else {} end)' > "$dir/request"
  sh -c "$LLM_CMD" < "$dir/request" > "$dir/response"
  if ! jq -e '.choices[0].message' "$dir/response" > "$dir/message" 2>/dev/null; then
    echo "tool-bridge: unexpected response from LLM_CMD:" >&2
    cat "$dir/response" >&2
    exit 1
  fi
  jq --slurpfile m "$dir/message" '. + $m' "$dir/messages" > "$dir/next" && mv "$dir/next" "$dir/messages"
  jq -c '.tool_calls // [] | .[]' "$dir/message" > "$dir/calls"
  if [ ! -s "$dir/calls" ]; then
    jq -r '.content // ""' "$dir/message"
    exit 0
  fi
  while IFS= read -r call; do
    printf '%s\n' "$call" > "$dir/call"
    name=$(jq -r '.function.name' "$dir/call")
    if [ "$name" = learn ] || [ "$name" = search ]; then
      # The arguments are a JSON string (an object from some servers).
      jq -r '.function.arguments | if type == "string" then . else tojson end' "$dir/call" \
        | $KB "$name" --args - > "$dir/result" || true    # a tool error (or no match) is text for the model
    else
      jq -r '"unknown tool: \(.function.name)"' "$dir/call" > "$dir/result"
    fi
    jq --rawfile content "$dir/result" --slurpfile call "$dir/call" \
      '. + [{role: "tool", tool_call_id: $call[0].id, content: $content}]' "$dir/messages" > "$dir/next"
    mv "$dir/next" "$dir/messages"
  done < "$dir/calls"
done
echo "tool-bridge: no answer after $max_turns model calls" >&2
exit 1

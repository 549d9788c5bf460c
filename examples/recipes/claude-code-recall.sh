#!/bin/sh
# A Claude Code UserPromptSubmit hook: before Claude sees a prompt, the
# knowledge relevant to it is recalled and added to its context.
#
# In .claude/settings.json (the script copied to .claude/hooks/):
#   {"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command",
#     "command": "\"$CLAUDE_PROJECT_DIR\"/.claude/hooks/claude-code-recall.sh"}]}]}}
#
# Claude Code sends the hook's input as JSON on stdin: "prompt" is what the
# user submitted, "cwd" the working directory. On exit 0, the
# hookSpecificOutput.additionalContext printed on stdout goes to Claude
# with the prompt; nothing printed adds nothing (nothing relevant). A kb
# failure exits 1: Claude Code shows the error and goes on (exit 2 would
# block the prompt). KB is the kb command and its flags (default: kb);
# KB_RECALL_TOKENS bounds the context (default: 2000 tokens, about 8,000
# characters: Claude Code shows longer hook output only as a preview).
# Needs jq.
set -euf
input=$(cat)
prompt=$(printf '%s' "$input" | jq -r '.prompt // ""')
cwd=$(printf '%s' "$input" | jq -r '.cwd // ""')
if [ -n "$cwd" ]; then cd "$cwd"; fi
if [ -z "$prompt" ]; then exit 0; fi
if ! context=$(printf '%s' "$prompt" | ${KB:-kb} recall --max-tokens "${KB_RECALL_TOKENS:-2000}" -); then
  echo "claude-code-recall: kb recall failed" >&2
  exit 1
fi
if [ -z "$context" ]; then exit 0; fi
jq -n --arg context "$context" '{hookSpecificOutput: {hookEventName: "UserPromptSubmit", additionalContext: $context}}'

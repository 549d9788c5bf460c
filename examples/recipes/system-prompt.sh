#!/bin/sh
# Ask an LLM command-line tool a question with the workspace's knowledge as
# its system prompt.
#
#   examples/recipes/system-prompt.sh "Who maintains the CLI?"
#
# LLM_CMD is the tool and its options (default: llm); it is called as
#   $LLM_CMD --system "<output of kb prompt>" ARGS...
# KB is the kb command and its flags (default: kb), e.g.
#   KB="kb -w path/to/workspace -k project/maintainers/*"
# An empty `kb prompt` (no topic to show) gives an empty system prompt.
set -euf    # -f: a pattern in KB (`-k topic/*`) is kb's, not the shell's
system=$(${KB:-kb} prompt)
exec ${LLM_CMD:-llm} --system "$system" "$@"

#!/bin/sh
# Ask an LLM command-line tool a question with the knowledge relevant to it
# in front: `kb recall "$q" | llm "$q"`.
#
#   examples/recipes/recall-pipe.sh "How do we tag a release?"
#
# LLM_CMD is the tool and its options (default: llm); it reads the recalled
# knowledge on stdin and gets the question as its arguments (llm puts what
# it reads before the prompt). KB is the kb command and its flags (default:
# kb); KB_RECALL_TOKENS bounds the knowledge (default: 4000 tokens). When
# nothing is relevant, the tool gets the question alone. A kb failure stops
# the recipe before the model is called.
set -euf    # -f: a pattern in KB is kb's, not the shell's
knowledge=$(${KB:-kb} recall --max-tokens "${KB_RECALL_TOKENS:-4000}" "$*")
printf '%s' "$knowledge" | ${LLM_CMD:-llm} "$@"

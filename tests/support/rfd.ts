// The RFD's example workspace and the texts kb prints for it, shared by the
// end-to-end tests (tests/e2e) and the in-process tests of the application
// layer (tests/unit/app).

/** The note on hidden subjects that closes the topic list (verbatim). */
export const NOTE = `(note: some topics may contain hidden subjects that are not listed via \`learn\`
by default, but can be loaded manually if you are made aware of their names via
other means, such as by reading non-hidden subjects first. This prevents
exposing too much irrelevant knowledge upfront)`;

export const RFD_CONFIG = `[kb.topic.project]
title = "General Project Knowledge"
introduction = "foo bar baz..."
description = "longer initial description talking about this"
subjects = ".jp/kb/project"

[kb.topic.skills]
title = "Learnable Assistant Skills"
subjects = ".jp/kb/skills"
`;

export const RFD_FILES: Record<string, string> = {
  '.jp/kb/project/maintainers/jean.md': 'Jean maintains the CLI.\n',
  '.jp/kb/project/maintainers/ryan.md': 'Ryan maintains the LLM crates.\n',
  '.jp/kb/project/code-quality.md': '# Code quality\nRun the linters.\n',
  '.jp/kb/project/.internal-notes.md': 'secret internal notes\n',
  '.jp/kb/skills/ast-grep.md': 'Use ast-grep. Read `ast-grep/rules` for full rule documentation.\n',
  '.jp/kb/skills/ast-grep/.rules.md': 'RULES-BODY\n',
};

/** The end of `kb prompt` for the RFD's workspace: the topics to learn. */
export const AVAILABLE = `The following knowledge topics are available to learn:

- project (**General Project Knowledge**): foo bar baz...
- skills (**Learnable Assistant Skills**)

Use the \`learn\` tool to consume this knowledge.

${NOTE}
</knowledge>
`;

/** `kb prompt -k 'project/maintainers/*'` for the RFD's workspace. */
export const PRELOADED = `<knowledge>
The following knowledge has been pre-loaded into your system prompt:

<topic "General Project Knowledge">

longer initial description talking about this

<subject "maintainers/jean">
Jean maintains the CLI.
</subject>

<subject "maintainers/ryan">
Ryan maintains the LLM crates.
</subject>
</topic>

${AVAILABLE}`;

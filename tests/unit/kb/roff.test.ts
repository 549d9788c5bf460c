// A manual page's source as the text it prints (content/roff.ts), its
// summary and sections (content/title.ts), on pages shaped like the Linux
// man-pages project's (man macros) and BSD's (mdoc).
import { describe, expect, test } from 'bun:test';
import { roffText, unroff } from '../../../src/kb/content/roff.ts';
import { searchedText } from '../../../src/kb/content/searched.ts';
import { headingsIn, headTitleOf } from '../../../src/kb/content/title.ts';

const enc = new TextEncoder();

const LICENCE = Array.from({ length: 40 }, (_, i) => `.\\" Permission is granted to copy and distribute, line ${i}.`).join('\n');
const CLOSE = `${LICENCE}
.TH CLOSE 2 2021-03-22 "Linux" "Linux Programmer's Manual"
.SH NAME
close \\- close a file descriptor
.SH SYNOPSIS
.nf
.B #include <unistd.h>
.PP
.BI "int close(int " fd );
.fi
.SH DESCRIPTION
.BR close ()
closes a file descriptor, so that it no longer refers to any file.
If \\fIfd\\fP is the last one, the resources are freed\\(emit\\(aqs done.
.SS Dealing with error returns from close()
A careful programmer checks the return value of \\fBclose\\fP().
`;

describe('roffText: what the page prints, line for line', () => {
  test('comments and layout requests are empty lines; macros give their text; escapes print', () => {
    const lines = roffText(CLOSE).split('\n');
    expect(lines.length).toBe(CLOSE.split('\n').length);
    expect(lines.slice(0, 41).every((l) => l === '')).toBe(true);
    expect(lines.slice(41)).toEqual([
      '.SH NAME',
      'close - close a file descriptor',
      '.SH SYNOPSIS',
      '',
      '#include <unistd.h>',
      '',
      'int close(int fd);',
      '',
      '.SH DESCRIPTION',
      'close()',
      'closes a file descriptor, so that it no longer refers to any file.',
      "If fd is the last one, the resources are freed\u2014it's done.",
      '.SS Dealing with error returns from close()',
      'A careful programmer checks the return value of close().',
      '',
    ]);
  });

  test('CRLF line ends stay; a line end escaped stays a line end', () => {
    expect(roffText('.PP\r\ntext \\fBb\\fR\r\n.\\" c\r\n')).toBe('\r\ntext b\r\n\n');
    expect(roffText('a \\\nb\n').split('\n').length).toBe(3);
  });

  test('only a page in a manual section that looks like one is read so', () => {
    // Searched as what it prints (content/searched.ts)...
    for (const [text, ext] of [[CLOSE, '2'], ['.so man2/_exit.2\n', '2'], ['.Dd $Mdocdate$\n.Dt CLOSE 2\n', 'mdoc']]) {
      expect(searchedText(text, ext)).toBe(roffText(text));
      expect(searchedText(text, ext)).not.toBe(text);
    }
    // ...or as it is.
    expect(searchedText('.NET is a framework.\nNotes on it.\n', '1')).toBe('.NET is a framework.\nNotes on it.\n');
    expect(searchedText(CLOSE, 'md')).toBe(CLOSE);
  });
});

describe('unroff', () => {
  test('fonts, strings and marks dropped; characters named; unknown names dropped', () => {
    expect(unroff('\\fBbold\\fR, \\f(CWcode\\fP, \\f[I]it\\f[]')).toBe('bold, code, it');
    expect(unroff('\\*(lqquoted\\*(rq \\*[s] \\*x')).toBe('quoted  ');
    expect(unroff('a\\&b\\%c \\- \\e \\(aq\\[dq]\\[xx]\\(zz')).toBe("abc - \\ '\"");
    expect(unroff('unclosed \\[em')).toBe('unclosed \u2014'); // the name runs to the end
    expect(unroff('ends with \\')).toBe('ends with ');
  });
});

describe('a manual page\'s summary and sections', () => {
  test('NAME then `name \\- summary`, its names over several lines, escapes read; mdoc `.Nd`', () => {
    expect(headTitleOf(enc.encode(CLOSE), '2')).toEqual({ summary: 'close a file descriptor' });
    const printf = '.TH PRINTF 3\n.SH NAME\nprintf, fprintf, dprintf,\nvsprintf, vsnprintf \\- formatted \\fIoutput\\fP conversion\n.SH SYNOPSIS\n';
    expect(headTitleOf(enc.encode(printf), '3').summary).toBe('formatted output conversion');
    const mdoc = '.Dd March 22, 2021\n.Dt CLOSE 2\n.Os\n.Sh NAME\n.Nm close\n.Nd delete a descriptor\n.Sh SYNOPSIS\n';
    expect(headTitleOf(enc.encode(mdoc), 'mdoc').summary).toBe('delete a descriptor');
    // No NAME line with a dash before the next section: none.
    expect(headTitleOf(enc.encode('.SH NAME\nclose\n.SH SYNOPSIS\nx \\- y\n'), '2')).toEqual({});
    // A stub that includes another page has none.
    expect(headTitleOf(enc.encode('.so man2/_exit.2\n'), '2')).toEqual({});
  });

  test('sections: .SH and .SS (mdoc .Sh, .Ss), quoted names read', () => {
    expect(headingsIn(CLOSE, '2').map((h) => [h.line, h.level, h.text])).toEqual([
      [42, 1, 'NAME'],
      [44, 1, 'SYNOPSIS'],
      [50, 1, 'DESCRIPTION'],
      [54, 2, 'Dealing with error returns from close()'],
    ]);
    expect(headingsIn('.Sh NAME\n.Ss "See \\fBalso\\fP"\n.SHX\n.SH\n', 'mdoc').map((h) => h.text)).toEqual(['NAME', 'See also']);
  });
});

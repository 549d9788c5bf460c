// Character references (`&amp;`, `&#8217;`, `&#x2014;`) decoded, as HTML
// reads them in text: the titles, summaries and text of HTML pages
// (content/title.ts, content/html.ts).
//
// Named references: HTML 4.01's 252 (Latin-1, symbols and Greek letters,
// special characters) and `&apos;`, with their semicolon. HTML5's table has
// 2,231 names; the other 1,978 (`&NewLine;`, `&bigotimes;`, ...) are
// written by hand in mathematical texts and almost never by a generator:
// Asciidoctor, Sphinx, Javadoc, Doxygen, pandoc and groff write the basic
// five and numeric references, and hand-written pages the HTML 4 names. A
// name not in the table is kept as written (nothing is lost, only not
// decoded), and so is a name without its semicolon. The table is 2 KB of
// source, turned into a map on first use: nothing at start-up.
//
// Numeric references follow HTML's rules: any number of digits (a huge
// one, a NUL, a surrogate or a code point past U+10FFFF is U+FFFD), the
// semicolon optional, 0x80-0x9F read as Windows-1252 (`&#150;` is an en
// dash). One pass over the text; a reference's name is read at most
// LONGEST_NAME characters far: linear in the text, whatever it holds.

/** HTML 4.01's named character references (and `apos`): name, then its
 *  code point in hexadecimal. */
const TABLE =
  'Aacute c1 aacute e1 Acirc c2 acirc e2 acute b4 AElig c6 aelig e6 Agrave c0 agrave e0 alefsym 2135 ' +
  'Alpha 391 alpha 3b1 amp 26 and 2227 ang 2220 apos 27 Aring c5 aring e5 asymp 2248 Atilde c3 atilde ' +
  'e3 Auml c4 auml e4 bdquo 201e Beta 392 beta 3b2 brvbar a6 bull 2022 cap 2229 Ccedil c7 ccedil e7 ' +
  'cedil b8 cent a2 Chi 3a7 chi 3c7 circ 2c6 clubs 2663 cong 2245 copy a9 crarr 21b5 cup 222a curren a4 ' +
  'Dagger 2021 dagger 2020 dArr 21d3 darr 2193 deg b0 Delta 394 delta 3b4 diams 2666 divide f7 Eacute ' +
  'c9 eacute e9 Ecirc ca ecirc ea Egrave c8 egrave e8 empty 2205 emsp 2003 ensp 2002 Epsilon 395 ' +
  'epsilon 3b5 equiv 2261 Eta 397 eta 3b7 ETH d0 eth f0 Euml cb euml eb euro 20ac exist 2203 fnof 192 ' +
  'forall 2200 frac12 bd frac14 bc frac34 be frasl 2044 Gamma 393 gamma 3b3 ge 2265 gt 3e hArr 21d4 ' +
  'harr 2194 hearts 2665 hellip 2026 Iacute cd iacute ed Icirc ce icirc ee iexcl a1 Igrave cc igrave ec ' +
  'image 2111 infin 221e int 222b Iota 399 iota 3b9 iquest bf isin 2208 Iuml cf iuml ef Kappa 39a kappa ' +
  '3ba Lambda 39b lambda 3bb lang 2329 laquo ab lArr 21d0 larr 2190 lceil 2308 ldquo 201c le 2264 ' +
  'lfloor 230a lowast 2217 loz 25ca lrm 200e lsaquo 2039 lsquo 2018 lt 3c macr af mdash 2014 micro b5 ' +
  'middot b7 minus 2212 Mu 39c mu 3bc nabla 2207 nbsp a0 ndash 2013 ne 2260 ni 220b not ac notin 2209 ' +
  'nsub 2284 Ntilde d1 ntilde f1 Nu 39d nu 3bd Oacute d3 oacute f3 Ocirc d4 ocirc f4 OElig 152 oelig ' +
  '153 Ograve d2 ograve f2 oline 203e Omega 3a9 omega 3c9 Omicron 39f omicron 3bf oplus 2295 or 2228 ' +
  'ordf aa ordm ba Oslash d8 oslash f8 Otilde d5 otilde f5 otimes 2297 Ouml d6 ouml f6 para b6 part ' +
  '2202 permil 2030 perp 22a5 Phi 3a6 phi 3c6 Pi 3a0 pi 3c0 piv 3d6 plusmn b1 pound a3 Prime 2033 prime ' +
  '2032 prod 220f prop 221d Psi 3a8 psi 3c8 quot 22 radic 221a rang 232a raquo bb rArr 21d2 rarr 2192 ' +
  'rceil 2309 rdquo 201d real 211c reg ae rfloor 230b Rho 3a1 rho 3c1 rlm 200f rsaquo 203a rsquo 2019 ' +
  'sbquo 201a Scaron 160 scaron 161 sdot 22c5 sect a7 shy ad Sigma 3a3 sigma 3c3 sigmaf 3c2 sim 223c ' +
  'spades 2660 sub 2282 sube 2286 sum 2211 sup 2283 sup1 b9 sup2 b2 sup3 b3 supe 2287 szlig df Tau 3a4 ' +
  'tau 3c4 there4 2234 Theta 398 theta 3b8 thetasym 3d1 thinsp 2009 THORN de thorn fe tilde 2dc times ' +
  'd7 trade 2122 Uacute da uacute fa uArr 21d1 uarr 2191 Ucirc db ucirc fb Ugrave d9 ugrave f9 uml a8 ' +
  'upsih 3d2 Upsilon 3a5 upsilon 3c5 Uuml dc uuml fc weierp 2118 Xi 39e xi 3be Yacute dd yacute fd yen ' +
  'a5 Yuml 178 yuml ff Zeta 396 zeta 3b6 zwj 200d zwnj 200c';

/** The longest name in TABLE. */
const LONGEST_NAME = 8;

let names: Map<string, string> | undefined;

function table(): Map<string, string> {
  if (names === undefined) {
    names = new Map();
    const parts = TABLE.split(' ');
    for (let i = 0; i + 1 < parts.length; i += 2) names.set(parts[i], String.fromCodePoint(parseInt(parts[i + 1], 16)));
  }
  return names;
}

/** What HTML reads `&#128;`-`&#159;` as (Windows-1252); 0 where it keeps
 *  the code point. */
const C1 = [
  0x20ac, 0, 0x201a, 0x0192, 0x201e, 0x2026, 0x2020, 0x2021, 0x02c6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017d, 0, 0, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x02dc, 0x2122, 0x0161, 0x203a, 0x0153, 0, 0x017e, 0x0178,
];

/** The character of numeric reference `code` (NaN or Infinity: too large). */
function numeric(code: number): string {
  if (!(code <= 0x10ffff) || code === 0 || (code >= 0xd800 && code <= 0xdfff)) return '\ufffd';
  if (code >= 0x80 && code <= 0x9f && C1[code - 0x80] !== 0) return String.fromCharCode(C1[code - 0x80]);
  return String.fromCodePoint(code);
}

function isDigit(c: number): boolean {
  return c >= 0x30 && c <= 0x39;
}

function isHex(c: number): boolean {
  return isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x66);
}

function isAlnum(c: number): boolean {
  return isDigit(c) || ((c | 0x20) >= 0x61 && (c | 0x20) <= 0x7a);
}

/** The reference at `s[at]` (an `&`): its character and where it ends, in
 *  `ref`; false when there is none (the `&` is text). */
const ref = { text: '', end: 0 };
function referenceAt(s: string, at: number): boolean {
  let i = at + 1;
  if (s.charCodeAt(i) === 0x23) {
    // `&#123;`, `&#x7b;`: digits, however many (each read once).
    i++;
    const hex = (s.charCodeAt(i) | 0x20) === 0x78;
    if (hex) i++;
    const start = i;
    while (i < s.length && (hex ? isHex(s.charCodeAt(i)) : isDigit(s.charCodeAt(i)))) i++;
    if (i === start) return false;
    // More than 8 digits (leading zeros aside) is past U+10FFFF.
    let k = start;
    while (k < i - 1 && s.charCodeAt(k) === 0x30) k++;
    ref.text = numeric(i - k > 8 ? Infinity : parseInt(s.slice(k, i), hex ? 16 : 10));
    ref.end = s.charCodeAt(i) === 0x3b ? i + 1 : i;
    return true;
  }
  const limit = Math.min(s.length, i + LONGEST_NAME);
  while (i < limit && isAlnum(s.charCodeAt(i))) i++;
  if (i === at + 1 || s.charCodeAt(i) !== 0x3b) return false;
  const c = table().get(s.slice(at + 1, i));
  if (c === undefined) return false;
  ref.text = c;
  ref.end = i + 1;
  return true;
}

/** `s` with its character references decoded. */
export function decodeEntities(s: string): string {
  let at = s.indexOf('&');
  if (at < 0) return s;
  let out = '';
  let from = 0;
  for (; at >= 0; at = s.indexOf('&', at + 1)) {
    if (!referenceAt(s, at)) continue;
    out += s.slice(from, at) + ref.text;
    from = ref.end;
    at = ref.end - 1;
  }
  return from === 0 ? s : out + s.slice(from);
}

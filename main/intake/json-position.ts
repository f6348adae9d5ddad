/**
 * Where a JSON text first goes wrong: V8's JSON.parse does not always say (Node 20 often
 * reports only the token), and a sidecar's error must name its line. jsonc-parser, in strict
 * JSON mode (no comments, no trailing commas), finds the first error; this turns it into the
 * offset and a sentence saying what was expected there.
 */
import { printParseErrorCode, visit, type ParseErrorCode } from 'jsonc-parser';

/** The first syntax error of `text` as strict JSON (RFC 8259), or undefined when it has none. */
export function jsonSyntaxError(text: string): { offset: number; message: string } | undefined {
  const open: ('{' | '[')[] = [];
  let rootDone = false;
  let first: { error: ParseErrorCode; offset: number; length: number; inside: '{' | '[' | undefined; afterRoot: boolean } | undefined;
  const closed = () => {
    open.pop();
    if (open.length === 0) rootDone = true;
  };
  visit(
    text,
    {
      onObjectBegin: () => void open.push('{'),
      onObjectEnd: closed,
      onArrayBegin: () => void open.push('['),
      onArrayEnd: closed,
      onLiteralValue: () => {
        if (open.length === 0) rootDone = true;
      },
      onError: (error, offset, length) => {
        first ??= { error, offset, length, inside: open.at(-1), afterRoot: rootDone && open.length === 0 };
      },
    },
    { disallowComments: true, allowTrailingComma: false, allowEmptyContent: false },
  );
  return first && describeError(text, first);
}

function describeError(text: string, e: { error: ParseErrorCode; offset: number; length: number; inside: '{' | '[' | undefined; afterRoot: boolean }): { offset: number; message: string } {
  const found = (at: number) => (at >= text.length ? 'the end of the text' : JSON.stringify(text[at]));
  const at = (offset: number, message: string) => ({ offset, message });
  const code = printParseErrorCode(e.error);
  switch (code) {
    case 'PropertyNameExpected':
      return at(e.offset, `expected a property name in double quotes, found ${found(e.offset)}`);
    case 'ColonExpected':
      return at(e.offset, `expected ":" after the property name, found ${found(e.offset)}`);
    case 'CommaExpected':
    case 'CloseBraceExpected':
    case 'CloseBracketExpected': {
      const close = code === 'CloseBraceExpected' || (code === 'CommaExpected' && e.inside === '{') ? '}' : ']';
      return at(e.offset, `expected "," or "${close}", found ${found(e.offset)}`);
    }
    case 'UnexpectedEndOfString': {
      // The string token runs up to what ended it: the end of the text, or a line break.
      const end = e.offset + e.length;
      return end >= text.length ? at(text.length, 'a string is never closed') : at(end, 'a line break or control character inside a string');
    }
    case 'InvalidCharacter':
      return at(firstControlCharacter(text, e.offset), 'a line break or control character inside a string');
    case 'InvalidEscapeCharacter':
      return at(firstBadEscape(text, e.offset, e.offset + e.length), 'a bad escape in a string');
    case 'InvalidUnicode':
      return at(firstBadEscape(text, e.offset, e.offset + e.length), 'a bad \\u escape');
    default:
      return at(e.offset, `unexpected ${found(e.offset)}${e.afterRoot ? ' after the JSON value' : ''}`);
  }
}

/** The offset of the first control character from `from` on (a string's token starts there). */
function firstControlCharacter(text: string, from: number): number {
  for (let i = from; i < text.length; i++) if (text.charCodeAt(i) < 0x20) return i;
  return from;
}

/** The offset of the first backslash in [from, to) that starts an escape JSON does not have. */
function firstBadEscape(text: string, from: number, to: number): number {
  for (let i = from; i < to; i++) {
    if (text[i] !== '\\') continue;
    const next = text[i + 1];
    if (next === 'u' ? !/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6)) : next === undefined || !'"\\/bfnrt'.includes(next)) return i;
    i++;
  }
  return from;
}

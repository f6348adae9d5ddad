/**
 * Where a JSON text first goes wrong: V8's JSON.parse does not always say (Node 20 often
 * reports only the token), and a sidecar's error must name its line. A small recursive-descent
 * scan of the grammar (RFC 8259), returning the offset and what was expected there.
 */
export function jsonSyntaxError(text: string): { offset: number; message: string } | undefined {
  let i = 0;
  const fail = (message: string): never => {
    throw { offset: i, message };
  };
  const ws = () => {
    while (i < text.length && ' \t\n\r'.includes(text[i]!)) i++;
  };
  const describe = () => (i >= text.length ? 'the end of the text' : JSON.stringify(text[i]));
  const literal = (word: string) => {
    if (text.startsWith(word, i)) i += word.length;
    else fail(`unexpected ${describe()}`);
  };
  const string = () => {
    i++; // opening quote
    for (;;) {
      if (i >= text.length) fail('a string is never closed');
      const ch = text[i]!;
      if (ch === '"') {
        i++;
        return;
      }
      if (ch === '\\') {
        const next = text[i + 1];
        if (next === 'u') {
          if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) fail('a bad \\u escape');
          i += 6;
        } else if (next !== undefined && '"\\/bfnrt'.includes(next)) i += 2;
        else fail('a bad escape in a string');
        continue;
      }
      if (ch < ' ') fail('a line break or control character inside a string');
      i++;
    }
  };
  const number = () => {
    const match = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i));
    if (!match) fail(`unexpected ${describe()}`);
    i += match![0].length;
  };
  const value = (): void => {
    ws();
    const ch = text[i];
    if (ch === '{') {
      i++;
      ws();
      if (text[i] === '}') {
        i++;
        return;
      }
      for (;;) {
        ws();
        if (text[i] !== '"') fail(`expected a property name in double quotes, found ${describe()}`);
        string();
        ws();
        if (text[i] !== ':') fail(`expected ":" after the property name, found ${describe()}`);
        i++;
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === '}') {
          i++;
          return;
        }
        fail(`expected "," or "}", found ${describe()}`);
      }
    }
    if (ch === '[') {
      i++;
      ws();
      if (text[i] === ']') {
        i++;
        return;
      }
      for (;;) {
        value();
        ws();
        if (text[i] === ',') {
          i++;
          continue;
        }
        if (text[i] === ']') {
          i++;
          return;
        }
        fail(`expected "," or "]", found ${describe()}`);
      }
    }
    if (ch === '"') return string();
    if (ch === 't') return literal('true');
    if (ch === 'f') return literal('false');
    if (ch === 'n') return literal('null');
    if (ch === '-' || (ch !== undefined && ch >= '0' && ch <= '9')) return number();
    fail(`unexpected ${describe()}`);
  };
  try {
    value();
    ws();
    if (i < text.length) fail(`unexpected ${describe()} after the JSON value`);
    return undefined;
  } catch (error) {
    if (typeof error === 'object' && error !== null && 'offset' in error) return error as { offset: number; message: string };
    throw error;
  }
}

import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const RENDERER = join(import.meta.dirname, '../../renderer');

/** Attributes whose text a person reads or hears. */
const SPOKEN_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'aria-valuetext', 'aria-roledescription', 'title', 'placeholder', 'alt', 'label']);

function tsxFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return tsxFiles(path);
    return entry.name.endsWith('.tsx') ? [path] : [];
  });
}

const hasWords = (text: string) => /[A-Za-z]{2}/.test(text);

/** The user-visible literals of one file: JSX text, and literal strings in spoken attributes or as a child. */
export function literalsIn(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, ts.ScriptKind.TSX);
  const found: string[] = [];
  const at = (node: ts.Node) => `${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
  const literalText = (node: ts.Node | undefined): string | null => {
    if (!node) return null;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join('…');
    if (ts.isConditionalExpression(node)) return literalText(node.whenTrue) ?? literalText(node.whenFalse);
    if (ts.isBinaryExpression(node)) {
      const op = node.operatorToken.kind;
      // `a && 'text'` shows its right side; `a || 'text'`, `a ?? 'text'` and `'a' + b` either side.
      if (op === ts.SyntaxKind.AmpersandAmpersandToken) return literalText(node.right);
      if (op === ts.SyntaxKind.BarBarToken || op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.PlusToken) return literalText(node.right) ?? literalText(node.left);
    }
    if (ts.isParenthesizedExpression(node)) return literalText(node.expression);
    return null;
  };
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node) && hasWords(node.text)) found.push(`${at(node)}: ${node.text.trim()}`);
    if (ts.isJsxAttribute(node) && SPOKEN_ATTRIBUTES.has(node.name.getText(sf))) {
      const init = node.initializer;
      const text = init && ts.isStringLiteral(init) ? init.text : init && ts.isJsxExpression(init) ? literalText(init.expression) : null;
      if (text !== null && hasWords(text)) found.push(`${at(node)}: ${node.name.getText(sf)}="${text}"`);
    }
    if (ts.isJsxExpression(node) && node.parent && (ts.isJsxElement(node.parent) || ts.isJsxFragment(node.parent))) {
      const text = literalText(node.expression);
      if (text !== null && hasWords(text)) found.push(`${at(node)}: {${text}}`);
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('every word the window shows comes from the catalogue', () => {
  const files = tsxFiles(RENDERER).map((file) => ({ name: relative(RENDERER, file), literals: literalsIn(file, readFileSync(file, 'utf8')) }));

  it('has no literal text, aria-label, title or placeholder in renderer JSX', () => {
    const offending = files.filter((f) => f.literals.length > 0).map((f) => `${f.name}\n  ${f.literals.join('\n  ')}`);
    expect(offending).toEqual([]);
  });

  it('finds a literal in JSX text, an aria-label and a conditional title', () => {
    const source = `const a = <p title={busy ? 'Working' : x}>Hello <b aria-label="Close">{'Two words'}</b>{count}</p>;`;
    expect(literalsIn('x.tsx', source)).toEqual(['1: title="Working"', '1: Hello', '1: aria-label="Close"', '1: {Two words}']);
  });
});

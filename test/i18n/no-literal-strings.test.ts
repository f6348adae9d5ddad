import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const RENDERER = join(import.meta.dirname, '../../renderer');

/** Attributes whose text a person reads or hears. */
const SPOKEN_ATTRIBUTES = new Set(['aria-label', 'aria-description', 'aria-valuetext', 'aria-roledescription', 'title', 'placeholder', 'alt', 'label']);

/** The renderer's source files whose names end with `ending` (tests and declarations left out). */
function sourceFiles(dir: string, ending: '.ts' | '.tsx'): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path, ending);
    return entry.name.endsWith(ending) && !entry.name.endsWith('.test.ts') && !entry.name.endsWith('.d.ts') ? [path] : [];
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

/** Properties whose string a person reads: menu entries, notifications, notices, outcomes, column heads. */
const SPOKEN_PROPERTIES = new Set(['label', 'title', 'body', 'text', 'notice', 'message', 'header', 'emptyText', 'placeholder', 'description', 'error']);

/** Calls whose string argument (at the index given) a person reads: a toast, a menu's name, a notification, an error shown as it is. */
const SPOKEN_CALLS = new Map([['toast', 1], ['useRowMenu', 0], ['useElementMenu', 0], ['Notification', 0], ['Error', 0], ['alert', 0], ['confirm', 0], ['prompt', 0]]);

/** Calls whose string arguments are CSS selectors or DOM names, never shown. */
const MACHINE_CALLS = new Set(['querySelector', 'querySelectorAll', 'closest', 'matches', 'setAttribute', 'getAttribute', 'removeAttribute', 'addEventListener', 'removeEventListener', 'createElement']);

/** A string that reads as words: two words apart, or a word closing a sentence. */
const READS_AS_WORDS = /[A-Za-z]{2,}[^\S\n]+[A-Za-z]{2,}|[A-Za-z]{2,}[.…!?]$/;

/** A piece of a template that is prose around its values: a word beside a space (`Saved ${file}`, `${name} — Proofdesk`). */
const PROSE_PIECE = /[A-Za-z]{2,}[^\S\n]|[^\S\n][A-Za-z]{2,}/;

/** A catalogue id (`records.menu.open`, `command.${id}`): the message's name, not its words. */
const MESSAGE_ID = /^[a-z][A-Za-z]*(\.[A-Za-z…]+)+$/;

/**
 * Deliberate exceptions: literals in one function of one file, each with its reason. An entry
 * whose function has no literal left fails the test.
 */
export const NOT_SHOWN: readonly { file: string; inside: string; why: string }[] = [
  { file: 'table/selection.ts', inside: 'selectedIndices', why: 'a programming error (the caller broke the contract), never shown to a person' },
  { file: 'main.tsx', inside: '', why: 'the page has no root element: a broken build, before any language is known' },
  { file: 'commands/help-dialogs.tsx', inside: 'diagnosticsText', why: 'Help › Copy diagnostics is a report for support: English whatever the window speaks, so whoever reads it can' },
  { file: 'jobs/job-text.ts', inside: 'waitingReason', why: "the start of the engine's note it recognises, to pick the catalogue's message; the note itself is not shown" },
  { file: 'table/column-store.ts', inside: '', why: 'the storage key the column choices are kept under' },
  { file: 'table/column-widths.ts', inside: 'tableMinWidth', why: 'a CSS length' },
  { file: 'format/chain-display.ts', inside: '', why: "public chains' own names (Ethereum, Base Sepolia), the same in every language" },
];

/**
 * The user-visible literals of code outside JSX (menus, command titles, notifications, notices,
 * errors, the window's title): strings that read as words anywhere, and any word where a
 * person reads it (a spoken property, a spoken call's argument, `document.title`).
 */
export function codeLiteralsIn(file: string, source: string): string[] {
  const sf = ts.createSourceFile(file, source, ts.ScriptTarget.Latest, true, file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const found: string[] = [];
  const textOf = (node: ts.Node): string | null => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node)) return [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].join('…');
    return null;
  };
  const readsAsWords = (node: ts.Node, text: string) =>
    ts.isTemplateExpression(node) ? [node.head.text, ...node.templateSpans.map((span) => span.literal.text)].some((piece) => PROSE_PIECE.test(piece) || READS_AS_WORDS.test(piece)) : READS_AS_WORDS.test(text);
  const callName = (call: ts.CallExpression | ts.NewExpression): string => {
    const callee = call.expression;
    if (ts.isIdentifier(callee)) return callee.text;
    if (ts.isPropertyAccessExpression(callee)) return callee.name.text;
    return '';
  };
  /** Where a literal sits, looking through conditionals, `??`, `||` and parentheses. */
  const placeOf = (node: ts.Node): ts.Node => {
    let at = node;
    while (at.parent && (ts.isConditionalExpression(at.parent) || ts.isParenthesizedExpression(at.parent) || (ts.isBinaryExpression(at.parent) && at.parent.operatorToken.kind !== ts.SyntaxKind.EqualsToken) || ts.isTemplateSpan(at.parent) || ts.isTemplateExpression(at.parent))) at = at.parent;
    return at;
  };
  const spokenPlace = (node: ts.Node): 'spoken' | 'machine' | 'toast' | null => {
    const at = placeOf(node);
    const parent = at.parent;
    if (!parent) return null;
    if (ts.isPropertyAssignment(parent) && parent.initializer === at) return SPOKEN_PROPERTIES.has(parent.name.getText(sf)) ? 'spoken' : null;
    if ((ts.isCallExpression(parent) || ts.isNewExpression(parent)) && parent.arguments?.includes(at as ts.Expression)) {
      const name = callName(parent);
      if (MACHINE_CALLS.has(name)) return 'machine';
      if (SPOKEN_CALLS.get(name) !== parent.arguments.indexOf(at as ts.Expression)) return null;
      return name === 'toast' ? 'toast' : 'spoken';
    }
    if (ts.isBinaryExpression(parent) && parent.operatorToken.kind === ts.SyntaxKind.EqualsToken && parent.left.getText(sf) === 'document.title') return 'spoken';
    return null;
  };
  /** The name of the function declaration around a node ('' at the top level). */
  const enclosingFunction = (node: ts.Node): string => {
    for (let at = node.parent; at; at = at.parent) if (ts.isFunctionDeclaration(at) && at.name) return at.name.text;
    return '';
  };
  const visit = (node: ts.Node) => {
    // Module names, types, JSX text and attributes (the JSX check's), class names: never read.
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node) || ts.isTypeNode(node) || ts.isJsxText(node)) return;
    if (ts.isJsxAttribute(node) && (node.name.getText(sf) === 'className' || (node.initializer && ts.isStringLiteral(node.initializer)))) return;
    if (ts.isVariableDeclaration(node) && /className$/i.test(node.name.getText(sf))) return;
    const text = textOf(node);
    if (text !== null) {
      const place = spokenPlace(node);
      const spoken = place === 'spoken' || place === 'toast';
      const shown = place !== 'machine' && (readsAsWords(node, text) || (spoken && /[A-Za-z]{2}/.test(text)));
      if (shown && !MESSAGE_ID.test(text)) found.push(`${sf.getLineAndCharacterOfPosition(node.getStart()).line + 1}: ${enclosingFunction(node)}: ${text}`);
      if (ts.isTemplateExpression(node)) node.templateSpans.forEach((span) => visit(span.expression));
      return;
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

describe('every word the window shows comes from the catalogue', () => {
  const files = sourceFiles(RENDERER, '.tsx').map((file) => ({ name: relative(RENDERER, file), literals: literalsIn(file, readFileSync(file, 'utf8')) }));

  it('has no literal text, aria-label, title or placeholder in renderer JSX', () => {
    const offending = files.filter((f) => f.literals.length > 0).map((f) => `${f.name}\n  ${f.literals.join('\n  ')}`);
    expect(offending).toEqual([]);
  });

  /** The function a finding is in (`12: fn: text`). */
  const insideOf = (finding: string) => finding.split(': ')[1]!;
  const code = [...sourceFiles(RENDERER, '.ts'), ...sourceFiles(RENDERER, '.tsx')].map((file) => {
    const name = relative(RENDERER, file);
    const exempt = new Set(NOT_SHOWN.filter((e) => e.file === name).map((e) => e.inside));
    const literals = codeLiteralsIn(file, readFileSync(file, 'utf8'));
    return { name, literals: literals.filter((l) => !exempt.has(insideOf(l))), all: literals };
  });

  it('has no literal words in renderer code outside JSX: menus, command titles, notifications, notices, errors, the window title', () => {
    const offending = code.filter((f) => f.literals.length > 0).map((f) => `${f.name}\n  ${f.literals.join('\n  ')}`);
    expect(offending).toEqual([]);
  });

  it('names as exceptions only literals that are still there', () => {
    const stale = NOT_SHOWN.filter((e) => !code.find((f) => f.name === e.file)?.all.some((l) => insideOf(l) === e.inside)).map((e) => `${e.file}: ${e.inside}`);
    expect(stale).toEqual([]);
  });

  it('finds a menu entry, a toast, a notification, an error and the window title in code, but not keys, selectors or module names', () => {
    const source = [
      `import { x } from './some module.js';`,
      `const entries = [{ key: 'open', label: 'Open', run }, { key: 'copy', label: busy ? 'Copying' : t('a.b') }];`,
      `toast('error', \`Issue now failed: \${message}\`);`,
      `new Notification('Job finished', { body: t('x') });`,
      `throw new Error('The file could not be read.');`,
      `document.title = name ?? 'Proofdesk';`,
      `if (event.key === 'Escape' || event.key === 'ContextMenu') close();`,
      `const input = form.querySelector('input[type="password"], textarea');`,
      `const id = \`job:\${uid}:\${status}\`;`,
    ].join('\n');
    expect(codeLiteralsIn('x.ts', source)).toEqual(['2: : Open', '2: : Copying', '3: : Issue now failed: …', '4: : Job finished', '5: : The file could not be read.', '6: : Proofdesk']);
  });

  it('finds a literal in JSX text, an aria-label and a conditional title', () => {
    const source = `const a = <p title={busy ? 'Working' : x}>Hello <b aria-label="Close">{'Two words'}</b>{count}</p>;`;
    expect(literalsIn('x.tsx', source)).toEqual(['1: title="Working"', '1: Hello', '1: aria-label="Close"', '1: {Two words}']);
  });
});

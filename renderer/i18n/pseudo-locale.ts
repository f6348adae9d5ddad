/**
 * The pseudo-locale `en-XA`, made from the English catalogue when it is loaded: every literal
 * accented and about 30 % longer, each message wrapped in `[` `]`. A word on screen without
 * them was not taken from the catalogue; a sentence cut by brackets was glued from pieces.
 */
import { parse, TYPE, type MessageFormatElement } from '@formatjs/icu-messageformat-parser';

const ACCENTED: Record<string, string> = {
  a: 'á', b: 'ƀ', c: 'ç', d: 'ð', e: 'é', f: 'ƒ', g: 'ĝ', h: 'ĥ', i: 'í', j: 'ĵ', k: 'ķ', l: 'ļ', m: 'ɱ',
  n: 'ñ', o: 'ö', p: 'þ', q: 'ǫ', r: 'ŕ', s: 'š', t: 'ţ', u: 'ú', v: 'ṽ', w: 'ŵ', x: 'ẋ', y: 'ý', z: 'ž',
  A: 'Á', B: 'Ɓ', C: 'Ç', D: 'Ð', E: 'É', F: 'Ƒ', G: 'Ĝ', H: 'Ĥ', I: 'Í', J: 'Ĵ', K: 'Ķ', L: 'Ļ', M: 'Ḿ',
  N: 'Ñ', O: 'Ö', P: 'Þ', Q: 'Ǫ', R: 'Ŕ', S: 'Š', T: 'Ţ', U: 'Û', V: 'Ṽ', W: 'Ŵ', X: 'Ẋ', Y: 'Ý', Z: 'Ž',
};

/** Accents a literal and pads it by a third of its letters (German runs about that much longer). */
export function pseudoText(text: string): string {
  const accented = [...text].map((c) => ACCENTED[c] ?? c).join('');
  const letters = text.replace(/[^A-Za-z]/g, '').length;
  return letters === 0 ? accented : accented + '~'.repeat(Math.ceil(letters * 0.3));
}

function pseudoElements(elements: MessageFormatElement[]): MessageFormatElement[] {
  return elements.map((element) => {
    switch (element.type) {
      case TYPE.literal:
        return { ...element, value: pseudoText(element.value) };
      case TYPE.plural:
      case TYPE.select:
        return {
          ...element,
          options: Object.fromEntries(Object.entries(element.options).map(([key, option]) => [key, { ...option, value: pseudoElements(option.value) }])),
        };
      case TYPE.tag:
        return { ...element, children: pseudoElements(element.children) };
      default:
        return element;
    }
  });
}

/**
 * The pseudo-locale's messages, as parsed ICU (react-intl takes them so, without a parser at run time).
 *
 * @example pseudoMessages({ 'a.b': 'Save' })['a.b'] // [ '[', 'Šáṽé~~', ']' ] as literal elements
 */
export function pseudoMessages(english: Record<string, string>): Record<string, MessageFormatElement[]> {
  return Object.fromEntries(
    Object.entries(english).map(([id, message]) => [
      id,
      [{ type: TYPE.literal, value: '[' }, ...pseudoElements(parse(message)), { type: TYPE.literal, value: ']' }],
    ]),
  );
}

/**
 * HTML written from values: the `html` tag escapes every value it is given (text and attribute
 * values alike) unless the value is itself {@link Html}, made by the tag; arrays are joined. So no
 * value reaches a page unescaped (docs/DESIGN.md "The uploads page").
 */

/** A piece of HTML made by {@link html}: its text is markup, written as it stands. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `value` as text safe in an element or a quoted attribute: `& < > " '` as entities. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** A value written into a template: markup as is, arrays joined, null/undefined/false as nothing, anything else escaped. */
function written(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(written).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** The tag: `` html`<p>${name}</p>` `` → {@link Html} with `name` escaped. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let text = strings[0];
  values.forEach((value, i) => {
    text += written(value) + strings[i + 1];
  });
  return new Html(text);
}

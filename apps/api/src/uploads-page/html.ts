/** The `html` tag escapes every value but {@link Html}, so no value reaches a page unescaped (docs/DESIGN.md "The uploads page"). */

/** Markup, written as it stands. */
export class Html {
  constructor(readonly text: string) {}
  toString(): string {
    return this.text;
  }
}

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** `& < > " '` as entities. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/** Markup as is, arrays joined, null/undefined/false as nothing, anything else escaped. */
function written(value: unknown): string {
  if (value instanceof Html) return value.text;
  if (Array.isArray(value)) return value.map(written).join('');
  if (value === null || value === undefined || value === false) return '';
  return escapeHtml(String(value));
}

/** `` html`<p>${name}</p>` `` with `name` escaped. */
export function html(strings: TemplateStringsArray, ...values: unknown[]): Html {
  let text = strings[0];
  values.forEach((value, i) => {
    text += written(value) + strings[i + 1];
  });
  return new Html(text);
}

import { escapeHtml, html } from './html';

/** The tag under another name, so that the formatter leaves the markup of these examples as written. */
const tag = html;

describe('html', () => {
  it('escapes every value written into it, in text and attributes', () => {
    const name = `<script>alert("x")</script> & 'y'`;
    expect(tag`<p title="${name}">${name}</p>`.text).toBe(
      '<p title="&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;">&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; &#39;y&#39;</p>',
    );
  });

  it('writes markup it made as it stands, joins arrays and writes nothing for null, undefined and false', () => {
    const items = ['a<', 'b'].map((x) => html`<li>${x}</li>`);
    const list = tag`<ul>${items}</ul>`;
    expect(tag`${list}${null}${undefined}${false}${0}`.text).toBe('<ul><li>a&lt;</li><li>b</li></ul>0');
  });

  it('escapes the five characters that matter', () => {
    expect(escapeHtml(`&<>"'`)).toBe('&amp;&lt;&gt;&quot;&#39;');
  });
});

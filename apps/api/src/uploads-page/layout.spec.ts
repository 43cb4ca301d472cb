import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { html } from './html';
import { framedPage, page } from './layout';

const holder = { csrfToken: 'csrf', provider: 'UKPRN 10000001' };

describe('framedPage', () => {
  const text = page({ title: 'Start', main: html`<p class="govuk-body">${'<!-- page header -->'}</p>`, signedIn: holder });

  it('not on GOV.UK: the generic header naming the service, no crown, and no service name repeated in the navigation', () => {
    const framed = framedPage(text, false);
    expect(framed).toContain('<a href="/uploads" class="govuk-generic-header__homepage-link">Register trainee teachers</a>');
    expect(framed).not.toMatch(/govuk-header__|GOV\.UK<\/title>|govuk-service-navigation__service-name|<!-- /);
  });

  it('on GOV.UK: GOV.UK’s header with its crown logo, and the service named in the service navigation', () => {
    const framed = framedPage(text, true);
    expect(framed).toMatch(/<header class="govuk-header"[\s\S]*aria-label="GOV.UK"/);
    expect(framed).toContain('<a href="/uploads" class="govuk-service-navigation__link">Register trainee teachers</a>');
    expect(framed).not.toMatch(/govuk-generic-header|<!-- /);
  });

  it('fills only the layout’s own slots: a value on the page that reads like one is escaped, and stays text', () => {
    expect(text).toContain('<p class="govuk-body">&lt;!-- page header --&gt;</p>');
    expect(framedPage(text, false).match(/govuk-generic-header__homepage-link/g)).toHaveLength(1);
  });
});

describe('the pages’ GOV.UK Frontend classes', () => {
  it('use only the tag colours GOV.UK Frontend’s stylesheet has', () => {
    const css = readFileSync(require.resolve('govuk-frontend/dist/govuk/govuk-frontend.min.css'), 'utf8');
    const sources = readdirSync(__dirname).filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'));
    const used = new Set(
      sources.flatMap((f) => [...readFileSync(join(__dirname, f), 'utf8').matchAll(/govuk-tag--[a-z-]+/g)].map((m) => m[0])),
    );
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((c) => !css.includes(`.${c}{`))).toEqual([]);
  });
});

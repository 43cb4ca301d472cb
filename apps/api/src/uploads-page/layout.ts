/**
 * The pages' skeleton: GOV.UK Frontend's page template (`dist/govuk/template.njk` of the
 * `govuk-frontend` package) written as HTML, with the header (GOV.UK's or the generic one, by where the service runs), the
 * service navigation, the main column and the footer; the error summary; and the Content-Security-Policy that lets the page run
 * only its own scripts (docs/DESIGN.md "The uploads page").
 */
import { createHash } from 'node:crypto';
import { GOVUK_LOGO_SVG } from './govuk-logo';
import { Html, html } from './html';

/** GOV.UK Frontend's first script in `<body>`: marks the page as run with JavaScript (styles depend on it). */
const JS_ENABLED_SCRIPT =
  "document.body.className += ' js-enabled' + ('noModule' in HTMLScriptElement.prototype ? ' govuk-frontend-supported' : '');";
/** The last script: starts GOV.UK Frontend's components (error summary focus, service navigation toggle). */
const INIT_SCRIPT = "import { initAll } from '/assets/govuk-frontend.min.js'; initAll();";

/** The two scripts as elements, written outside the `html` tag so that nothing reformats what the hashes are of. */
const JS_ENABLED_ELEMENT = new Html(`<script>${JS_ENABLED_SCRIPT}</script>`);
const INIT_ELEMENT = new Html(`<script type="module">${INIT_SCRIPT}</script>`);

const sha256 = (script: string) => `'sha256-${createHash('sha256').update(script, 'utf8').digest('base64')}'`;

/**
 * The pages' Content-Security-Policy: everything from the service itself only, the two inline
 * scripts by their hashes, no plugins, no framing, forms posted to the service only.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  `script-src 'self' ${sha256(JS_ENABLED_SCRIPT)} ${sha256(INIT_SCRIPT)}`,
  "style-src 'self'",
  "img-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** One error of a page: its message and the id of the field it is about (the summary links to it). */
export interface PageError {
  message: string;
  field: string;
}

/** The service navigation's items: adding trainees from a file, recommending trainees, and (signed in) the provider's trainees. */
export type NavItem = 'uploads' | 'recommendations' | 'trainees';

/** Where a page stands in the service navigation: the item it belongs to, and whether it is that item's own page or one under it. */
export interface NavPlace {
  item: NavItem;
  /** The item's own page (`aria-current="page"`), else one under it (`aria-current="true"`). */
  own: boolean;
}

/** What a page says: its title and heading, its body, its errors, whether it is signed in. */
export interface PageContent {
  title: string;
  main: Html;
  errors?: readonly PageError[];
  /** Who is signed in (the sign-out form's CSRF token, the provider named on the page), or null when no one is. */
  signedIn?: PageHolder | null;
  /** Its item marked in the service navigation; none marked when absent. */
  place?: NavPlace;
}

/**
 * The GOV.UK error summary (heading "There is a problem", a link to each field), placed first in
 * `main`; nothing when there are no errors.
 */
export function errorSummary(errors: readonly PageError[]): Html {
  if (errors.length === 0) return html``;
  return html`<div class="govuk-error-summary" data-module="govuk-error-summary">
    <div role="alert">
      <h2 class="govuk-error-summary__title">There is a problem</h2>
      <div class="govuk-error-summary__body">
        <ul class="govuk-list govuk-error-summary__list">
          ${errors.map((e) => html`<li><a href="#${e.field}">${e.message}</a></li>`)}
        </ul>
      </div>
    </div>
  </div>`;
}

/** A signed-in page's holder: the session's CSRF token and the provider, as named on every page. */
export interface PageHolder {
  csrfToken: string;
  /** `<name> (UKPRN <ukprn>)`, or `UKPRN <ukprn>` when the sign-in gave no name. */
  provider: string;
  /** A `viewer`: the pages show no form to add, submit or cancel an upload. */
  viewOnly?: boolean;
}

/** The line naming the signed-in provider, under the service navigation. */
function providerLine(signedIn: PageHolder | null): Html {
  if (signedIn === null) return html``;
  return html`<p class="govuk-body govuk-!-margin-top-4 govuk-!-margin-bottom-0" id="signed-in-provider">
    Signed in for <strong>${signedIn.provider}</strong>
  </p>`;
}

/** The service's name, in the header or the service navigation. */
const SERVICE_NAME = 'Register trainee teachers';

/**
 * Where the header goes, and the service navigation's service name: filled as each page is sent ({@link framedPage}), by whether the
 * service runs on GOV.UK. A value on a page is escaped, so no value can write a slot.
 */
const HEADER_SLOT = '<!-- page header -->';
const SERVICE_NAME_SLOT = '<!-- service navigation name -->';

/** GOV.UK's header, with its crown logo: for a service on GOV.UK only. */
const GOVUK_HEADER = html`<header class="govuk-header" data-module="govuk-header">
  <div class="govuk-header__container govuk-width-container">
    <div class="govuk-header__logo"><a href="/uploads" class="govuk-header__homepage-link">${new Html(GOVUK_LOGO_SVG)}</a></div>
  </div>
</header>`.text;

/** The Design System's generic header, for a service not on GOV.UK: no crown, the service's name as its text. */
const GENERIC_HEADER = html`<header class="govuk-generic-header">
  <div class="govuk-generic-header__container govuk-width-container">
    <div class="govuk-generic-header__logo"><a href="/uploads" class="govuk-generic-header__homepage-link">${SERVICE_NAME}</a></div>
  </div>
</header>`.text;

/** Below GOV.UK's header, the service navigation names the service; below the generic header, which names it, it does not. */
const SERVICE_NAVIGATION_NAME = html`<span class="govuk-service-navigation__service-name"
  ><a href="/uploads" class="govuk-service-navigation__link">${SERVICE_NAME}</a></span
>`.text;

/**
 * A page as sent: `onGovUk` (`PAGES_ON_GOV_UK`), GOV.UK's header (crown logo) and the service's name in the service navigation;
 * otherwise the generic header with the service's name as its text (GOV.UK Design System "Generic header", for a government service
 * not on the GOV.UK website: GOV.UK's header is for services on GOV.UK only). A text without the slots is answered as it is.
 */
export function framedPage(text: string, onGovUk: boolean): string {
  return text
    .replace(HEADER_SLOT, () => (onGovUk ? GOVUK_HEADER : GENERIC_HEADER))
    .replace(SERVICE_NAME_SLOT, () => (onGovUk ? SERVICE_NAVIGATION_NAME : ''));
}

/** The navigation's items: where each goes, its words, and whether it needs a signed-in provider. */
const NAV_ITEMS: readonly { item: NavItem; href: string; words: string; signedInOnly: boolean }[] = [
  { item: 'uploads', href: '/uploads', words: 'Add trainees from a file', signedInOnly: false },
  { item: 'recommendations', href: '/uploads/recommendations', words: 'Recommend trainees', signedInOnly: false },
  { item: 'trainees', href: '/uploads/trainees', words: 'Your trainees', signedInOnly: true },
];

/** The navigation's links; the page's own item marked as GOV.UK's service navigation marks it (active, `aria-current`, in bold). */
function navLinks(signedIn: boolean, place: NavPlace | null): Html[] {
  return NAV_ITEMS.filter((n) => signedIn || !n.signedInOnly).map((n) => {
    if (place?.item !== n.item) {
      return html`<li class="govuk-service-navigation__item">
        <a class="govuk-service-navigation__link" href="${n.href}">${n.words}</a>
      </li>`;
    }
    return html`<li class="govuk-service-navigation__item govuk-service-navigation__item--active">
      <a class="govuk-service-navigation__link" href="${n.href}" aria-current="${place.own ? 'page' : 'true'}"
        ><strong class="govuk-service-navigation__active-fallback">${n.words}</strong></a
      >
    </li>`;
  });
}

/** The header's slot, the service navigation (with a sign-out form once signed in). */
function banner(signedIn: PageHolder | null, place: NavPlace | null): Html {
  const signOutCsrf = signedIn?.csrfToken ?? null;
  const signOut =
    signOutCsrf === null
      ? html``
      : html`<li class="govuk-service-navigation__item">
          <form method="post" action="/uploads/sign-out" class="govuk-!-display-inline">
            <input type="hidden" name="csrf_token" value="${signOutCsrf}" />
            <button type="submit" class="govuk-button govuk-button--secondary govuk-!-margin-bottom-0">Sign out</button>
          </form>
        </li>`;
  return html`${new Html(HEADER_SLOT)}
    <section aria-label="Service information" class="govuk-service-navigation" data-module="govuk-service-navigation">
      <div class="govuk-width-container">
        <div class="govuk-service-navigation__container">
          ${new Html(SERVICE_NAME_SLOT)}
          <nav aria-label="Menu" class="govuk-service-navigation__wrapper">
            <ul class="govuk-service-navigation__list" id="navigation">
              ${navLinks(signedIn !== null, place)} ${signOut}
            </ul>
          </nav>
        </div>
      </div>
    </section>`;
}

/**
 * A whole page in GOV.UK Frontend's template: `Error: ` before the title when the page has errors; its header is left for
 * {@link framedPage} to fill as the page is sent.
 */
export function page(content: PageContent): string {
  const errors = content.errors ?? [];
  const title = `${errors.length > 0 ? 'Error: ' : ''}${content.title} – ${SERVICE_NAME}`;
  return html`<!DOCTYPE html>
    <html lang="en" class="govuk-template">
      <head>
        <meta charset="utf-8" />
        <title>${title}</title>
        <meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover" />
        <meta name="theme-color" content="#1d70b8" />
        <link rel="icon" sizes="48x48" href="/assets/images/favicon.ico" />
        <link rel="icon" sizes="any" href="/assets/images/favicon.svg" type="image/svg+xml" />
        <link rel="stylesheet" href="/assets/govuk-frontend.min.css" />
      </head>
      <body class="govuk-template__body">
        ${JS_ENABLED_ELEMENT}
        <a href="#main-content" class="govuk-skip-link" data-module="govuk-skip-link">Skip to main content</a>
        ${banner(content.signedIn ?? null, content.place ?? null)}
        <div class="govuk-width-container">
          ${providerLine(content.signedIn ?? null)}
          <main class="govuk-main-wrapper" id="main-content">
            <div class="govuk-grid-row"><div class="govuk-grid-column-full">${errorSummary(errors)} ${content.main}</div></div>
          </main>
        </div>
        <footer class="govuk-footer">
          <div class="govuk-width-container">
            <div class="govuk-footer__meta">
              <div class="govuk-footer__meta-item govuk-footer__meta-item--grow">
                <h2 class="govuk-visually-hidden">Support links</h2>
                <p class="govuk-body-s govuk-!-margin-bottom-0">Trainee records service: add trainees from a CSV file.</p>
              </div>
            </div>
          </div>
        </footer>
        ${INIT_ELEMENT}
      </body>
    </html>`.text;
}

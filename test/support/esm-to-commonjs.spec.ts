import * as client from 'openid-client';
import { Provider } from 'oidc-provider';

describe('the ES-module-only packages under Jest (test/support/esm-to-commonjs.js)', () => {
  it('loads openid-client and oidc-provider as CommonJS, with their exports', () => {
    expect(typeof client.discovery).toBe('function');
    expect(typeof client.authorizationCodeGrant).toBe('function');
    expect(typeof Provider).toBe('function');
  });
});

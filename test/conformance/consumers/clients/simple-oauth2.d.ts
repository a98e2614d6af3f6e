// simple-oauth2 5.1.0 ships no types: the part of its documented API the test client uses.
declare module "simple-oauth2" {
  export interface ModuleOptions {
    client: { id: string; secret: string };
    auth: { tokenHost: string; tokenPath?: string; authorizePath?: string };
  }
  export interface AccessToken {
    token: Record<string, unknown>;
  }
  export class AuthorizationCode {
    constructor(options: ModuleOptions);
    authorizeURL(params: { redirect_uri: string; scope?: string | string[]; state?: string; [key: string]: unknown }): string;
    getToken(params: { code: string; redirect_uri: string; scope?: string | string[]; [key: string]: unknown }): Promise<AccessToken>;
  }
}

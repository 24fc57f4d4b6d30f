import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { newKey, request, uniqueTag, until } from "./helpers";
import { jwksFetches, launch, loginAtPlatform, loginRequest, platformUrl, postLaunch, registerPlatform } from "./lti-helpers";

const INSTRUCTOR = "http://purl.imsglobal.org/vocab/lis/v2/membership#Instructor";

/** A tenant with a platform of its own tag registered: each test launches from its own LMS. */
async function withPlatform(name: string, overrides: Record<string, unknown> = {}) {
  const tag = uniqueTag(name);
  const key = await newKey(uniqueTag(`lti-${name}`), ["admin"]);
  const platform = await registerPlatform(key, tag, overrides);
  return { tag, key, platform };
}

/** The reason code a refused launch's page shows. */
const codeOf = (r: { json: unknown }) => String(r.json).match(/<code id="code">([^<]+)<\/code>/)?.[1];

describe("LTI 1.3 login and launch", () => {
  it("sends the browser to the platform with state and nonce, bound by a partitioned cookie", async () => {
    const { tag } = await withPlatform("login");
    const query = new URLSearchParams({
      iss: `https://lms-${tag}.example`,
      login_hint: "u1",
      target_link_uri: "http://service.test/lti/launch",
      client_id: `client-${tag}`,
      lti_message_hint: "hint-1",
    });
    for (const r of [
      await loginRequest(`/lti/login?${query}`),
      await loginRequest("/lti/login", {
        method: "POST",
        body: query.toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      }),
    ]) {
      expect(r.status).toBe(302);
      const to = new URL(r.headers.get("location") as string);
      expect(to.origin + to.pathname).toBe(`${platformUrl(tag)}/authorize`);
      const p = Object.fromEntries(to.searchParams);
      expect(p).toMatchObject({
        scope: "openid",
        response_type: "id_token",
        response_mode: "form_post",
        prompt: "none",
        client_id: `client-${tag}`,
        redirect_uri: "http://service.test/lti/launch",
        login_hint: "u1",
        lti_message_hint: "hint-1",
      });
      expect(p.state).toMatch(/^[\w-]{43}$/);
      expect(p.nonce).toMatch(/^[\w-]{43}$/);
      const cookie = r.headers.get("set-cookie") as string;
      expect(cookie).toContain(`lti_state_${p.state}=1`);
      for (const attribute of ["Secure", "HttpOnly", "SameSite=None", "Partitioned", "Path=/lti"]) expect(cookie).toContain(attribute);
    }
  });

  it("takes at most LTI_LOGINS_PER_MINUTE logins a minute from one client address, then a 429 with Retry-After, writing nothing", async () => {
    const { tag } = await withPlatform("login-limit");
    const hint = uniqueTag("hint");
    const query = new URLSearchParams({
      iss: `https://lms-${tag}.example`,
      login_hint: hint,
      target_link_uri: "http://service.test/lti/launch",
      client_id: `client-${tag}`,
    });
    const from = (address: string) => loginRequest(`/lti/login?${query}`, { headers: { "cf-connecting-ip": address } });
    const address = `198.51.100.${Math.floor(Math.random() * 250) + 1}`;
    const statuses = [];
    for (let i = 0; i < 6; i++) statuses.push((await from(address)).status);
    expect(statuses).toEqual([302, 302, 302, 302, 302, 429]);
    const refused = await from(address);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("content-type")).toBe("application/problem+json");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await refused.json()) as { detail: string }).toMatchObject({ detail: expect.stringContaining("too many LTI logins") });
    // only the five let through wrote a login
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM lti_logins WHERE login_hint = ?").bind(hint).first<{ n: number }>();
    expect(rows?.n).toBe(5);
    // another address, and a request without one (a local tool), still log in
    expect((await from("203.0.113.250")).status).toBe(302);
    expect((await loginRequest(`/lti/login?${query}`)).status).toBe(302);
  });

  it("lands a learner and an instructor on a page naming who launched, as what, from which link", async () => {
    const { tag } = await withPlatform("ok");
    const learner = await launch(tag);
    expect(learner.status).toBe(200);
    expect(learner.headers.get("content-type")).toContain("text/html");
    expect(learner.json).toContain('<span id="who">Ada Lovelace</span>');
    expect(learner.json).toContain('<span id="role">learner</span>');
    expect(learner.json).toContain("Week 3: stacks");
    const teacher = await launch(tag, {
      claims: { name: "Grace <Hopper>", "https://purl.imsglobal.org/spec/lti/claim/roles": [INSTRUCTOR] },
    });
    expect(teacher.status).toBe(200);
    expect(teacher.json).toContain('<span id="who">Grace &#60;Hopper&#62;</span>');
    expect(teacher.json).toContain('<span id="role">instructor</span>');
    const picker = await launch(tag, {
      claims: {
        "https://purl.imsglobal.org/spec/lti/claim/roles": [INSTRUCTOR],
        "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiDeepLinkingRequest",
        "https://purl.imsglobal.org/spec/lti/claim/resource_link": null,
        "https://purl.imsglobal.org/spec/lti-dl/claim/deep_linking_settings": { deep_link_return_url: "https://lms.example/return" },
      },
    });
    expect(picker.status).toBe(200);
    expect(picker.json).toContain("<h1>Add a graded question</h1>");
    // three launches, one JWKS fetch: the platform's keys are cached
    expect(await jwksFetches(tag)).toBe(1);
  });

  it("refuses a forged signature, an expired token, a wrong audience, a wrong deployment, a wrong message type or version", async () => {
    const { tag } = await withPlatform("refuse");
    const cases: [string, Parameters<typeof launch>[1], string][] = [
      ["forged", { forge: true }, "bad-signature"],
      ["expired", { expiresIn: -120 }, "expired"],
      ["audience", { claims: { aud: "someone-else" } }, "wrong-audience"],
      ["several audiences, azp not this tool", { claims: { aud: [`client-${tag}`, "other"], azp: "other" } }, "wrong-audience"],
      ["deployment", { claims: { "https://purl.imsglobal.org/spec/lti/claim/deployment_id": "dep-9" } }, "unknown-deployment"],
      [
        "message type",
        { claims: { "https://purl.imsglobal.org/spec/lti/claim/message_type": "LtiSubmissionReviewRequest" } },
        "wrong-message-type",
      ],
      ["version", { claims: { "https://purl.imsglobal.org/spec/lti/claim/version": "1.1" } }, "wrong-version"],
      ["nonce", { claims: { nonce: "not-the-login-nonce" } }, "wrong-nonce"],
      ["issuer", { claims: { iss: "https://another-lms.example" } }, "wrong-issuer"],
      ["resource link", { claims: { "https://purl.imsglobal.org/spec/lti/claim/resource_link": null } }, "missing-claim"],
    ];
    for (const [what, hint, code] of cases) {
      const page = await launch(tag, hint);
      expect(codeOf(page), what).toBe(code);
      expect(page.status, what).toBeGreaterThanOrEqual(400);
      // words for a teacher: no stack, no token
      expect(String(page.json)).not.toMatch(/at \w+ \(|eyJ/);
      const json = await launch(tag, hint, { json: true });
      expect(json.headers.get("content-type"), what).toBe("application/problem+json");
      expect(json.json.errors, what).toEqual([{ field: "lti", reason: code }]);
      expect(JSON.stringify(json.json)).not.toContain("eyJ");
    }
    // with several audiences, this tool as azp is accepted
    expect((await launch(tag, { claims: { aud: [`client-${tag}`, "other"], azp: `client-${tag}` } })).status).toBe(200);
  });

  it("refuses a replayed launch, a launch without the login's cookie, and one with no login", async () => {
    const { tag } = await withPlatform("replay");
    const form = await loginAtPlatform(tag);
    expect((await postLaunch(form)).status).toBe(200);
    const again = await postLaunch(form);
    expect(again.status).toBe(401);
    expect(codeOf(again)).toBe("no-login");
    // the same token under a fresh login's state: its nonce is not that login's
    const fresh = await loginAtPlatform(tag);
    expect(codeOf(await postLaunch({ ...fresh, id_token: form.id_token }))).toBe("wrong-nonce");
    const noCookie = await postLaunch(await loginAtPlatform(tag), { withoutCookie: true });
    expect(codeOf(noCookie)).toBe("cookie-missing");
    expect(codeOf(await postLaunch({ ...form, state: "never-issued" }))).toBe("no-login");
  });

  it("offers a frame that kept no cookie the same login in a new window, which launches", async () => {
    const { tag } = await withPlatform("new-window");
    const hint = { claims: { name: "Katherine Johnson" } };
    const page = await postLaunch(await loginAtPlatform(tag, hint), { withoutCookie: true });
    expect(codeOf(page)).toBe("cookie-missing");
    const href = String(page.json).match(/<a id="open-again" href="([^"]+)" target="_blank" rel="noopener">/)?.[1];
    const again = new URL((href ?? "").replace(/&amp;/g, "&").replace(/&#38;/g, "&"));
    expect(again.origin + again.pathname).toBe("http://service.test/lti/login");
    expect(Object.fromEntries(again.searchParams)).toMatchObject({
      iss: `https://lms-${tag}.example`,
      client_id: `client-${tag}`,
      login_hint: "learner-7",
      target_link_uri: "http://service.test/lti/launch",
    });
    // in the new window the cookie is first-party: the login runs again and the launch lands
    const login = await loginRequest(again.pathname + again.search);
    expect(login.status).toBe(302);
    const form = await (await fetch(login.headers.get("location") as string)).text();
    const field = (name: string) => form.match(new RegExp(`name="${name}" value="([^"]*)"`))?.[1] ?? "";
    const cookie = (login.headers.get("set-cookie") ?? "").split(";")[0];
    const launched = await postLaunch({ id_token: field("id_token"), state: field("state"), cookie });
    expect(launched.status).toBe(200);
    expect(launched.json).toContain('<span id="who">Katherine Johnson</span>');
  });

  it("refuses a login from an unknown platform or deployment, or for a page elsewhere", async () => {
    const { tag } = await withPlatform("login-refuse");
    const login = (params: Record<string, string>) =>
      request(
        "GET",
        `/lti/login?${new URLSearchParams({ iss: `https://lms-${tag}.example`, login_hint: "u", target_link_uri: "http://service.test/lti/launch", client_id: `client-${tag}`, ...params })}`,
      );
    const unknown = await login({ iss: "https://nobody.example" });
    expect(unknown.status).toBe(400);
    expect(codeOf(unknown)).toBe("unknown-platform");
    expect(codeOf(await login({ client_id: "not-registered" }))).toBe("unknown-platform");
    expect(codeOf(await login({ lti_deployment_id: "dep-9" }))).toBe("unknown-deployment");
    expect(codeOf(await login({ target_link_uri: "https://evil.example/lti/launch" }))).toBe("wrong-target");
    expect(codeOf(await login({ login_hint: "" }))).toBe("missing-parameter");
    // without a client id, an issuer registered once is enough; registered twice, the login cannot tell which
    const withoutClient = await loginRequest(
      `/lti/login?${new URLSearchParams({ iss: `https://lms-${tag}.example`, login_hint: "u", target_link_uri: "http://service.test/lti/launch" })}`,
    );
    expect(withoutClient.status).toBe(302);
    await registerPlatform(await newKey(uniqueTag("lti-second"), ["admin"]), tag, { clientId: `second-${tag}` });
    const ambiguous = await loginRequest(
      `/lti/login?${new URLSearchParams({ iss: `https://lms-${tag}.example`, login_hint: "u", target_link_uri: "http://service.test/lti/launch" })}`,
    );
    expect(codeOf({ json: await ambiguous.text() })).toBe("ambiguous-platform");
  });

  it("says so when the platform's JWKS cannot be read", async () => {
    const tag = uniqueTag("nojwks");
    await registerPlatform(await newKey(uniqueTag("lti-nojwks"), ["admin"]), tag, { jwksUrl: `${platformUrl(tag)}/not-a-key-set` });
    const r = await launch(tag);
    expect(r.status).toBe(503);
    expect(codeOf(r)).toBe("jwks-unreachable");
  });

  it("refuses a launch body larger than any id_token", async () => {
    const r = await request("POST", "/lti/launch", {
      raw: `id_token=${"a".repeat(100_000)}&state=x`,
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(r.status).toBe(413);
  });

  it("a removed platform's launches are refused", async () => {
    const { tag, key, platform } = await withPlatform("removed");
    const form = await loginAtPlatform(tag);
    await request("DELETE", `/v1/lti/platforms/${platform.id}`, { key });
    expect(codeOf(await postLaunch(form))).toBe("unknown-platform");
  });

  it("refetches the JWKS once for a kid it does not know, not once per launch", async () => {
    const { tag } = await withPlatform("kid");
    expect((await launch(tag)).status).toBe(200);
    expect(await jwksFetches(tag)).toBe(1);
    // the platform rotates: its tokens now name a kid the tool has not seen. Within the cooldown
    // (LTI_JWKS_COOLDOWN_MS) they are refused without a fetch; the first after it refetches, and passes
    await fetch(`${platformUrl(tag)}/rotate`, { method: "POST" });
    await until("a launch signed with the new key", async () => ((await launch(tag)).status === 200 ? true : null), 10_000, 50);
    expect(await jwksFetches(tag)).toBe(2);
    // kids nobody publishes, many at once: at most one more fetch (one if the cooldown ran out meanwhile)
    const forged = await Promise.all(Array.from({ length: 6 }, () => launch(tag, { kid: "nobody-has-this" })));
    for (const r of forged) expect(codeOf(r)).toBe("unknown-key");
    expect(await jwksFetches(tag)).toBeLessThanOrEqual(3);
  });
});

import { describe, expect, it } from "vitest";
import { authorizationUrl, isOwnTarget, loginAgainUrl, loginRequestOf, stateCookie } from "../../../src/lti/login";
import { launchedPage, refusedPage } from "../../../src/lti/pages";

describe("the OIDC login", () => {
  it("reads the login's parameters and names the missing ones", () => {
    expect(loginRequestOf({ iss: "i", login_hint: "h", target_link_uri: "t", client_id: "c" })).toEqual({
      iss: "i",
      loginHint: "h",
      targetLinkUri: "t",
      ltiMessageHint: null,
      clientId: "c",
      deploymentId: null,
    });
    expect(loginRequestOf({ iss: "i" })).toEqual({
      code: "missing-parameter",
      detail: "Missing from the login: login_hint, target_link_uri.",
    });
  });

  it("builds the authorization request, keeping the platform URL's own query", () => {
    const login = { iss: "i", loginHint: "h", targetLinkUri: "t", ltiMessageHint: "m", clientId: null, deploymentId: null };
    const url = new URL(
      authorizationUrl("https://lms.example/auth?x=1", login, {
        clientId: "c",
        redirectUri: "https://tool/lti/launch",
        state: "s",
        nonce: "n",
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      x: "1",
      scope: "openid",
      response_type: "id_token",
      response_mode: "form_post",
      prompt: "none",
      client_id: "c",
      redirect_uri: "https://tool/lti/launch",
      login_hint: "h",
      lti_message_hint: "m",
      state: "s",
      nonce: "n",
    });
  });

  it("opens only this service's pages", () => {
    expect(isOwnTarget("https://grading.example.edu/lti/launch", "https://grading.example.edu")).toBe(true);
    expect(isOwnTarget("https://evil.example/lti/launch", "https://grading.example.edu")).toBe(false);
    expect(isOwnTarget("not a url", "https://grading.example.edu")).toBe(false);
  });

  it("starts the same login again, for a new window", () => {
    const url = loginAgainUrl("https://tool.example", {
      iss: "https://lms",
      clientId: "c",
      loginHint: "h&x",
      messageHint: null,
      targetLinkUri: "https://tool.example/lti/launch",
    });
    expect(url).toBe(
      "https://tool.example/lti/login?iss=https%3A%2F%2Flms&login_hint=h%26x&target_link_uri=https%3A%2F%2Ftool.example%2Flti%2Flaunch&client_id=c",
    );
  });

  it("binds the state by a cross-site, partitioned, script-proof cookie", () => {
    expect(stateCookie("abc", 600)).toBe("lti_state_abc=1; Path=/lti; Max-Age=600; HttpOnly; Secure; SameSite=None; Partitioned");
  });
});

describe("the launch pages", () => {
  it("escapes what the platform sent", () => {
    const html = launchedPage({
      messageType: "LtiResourceLinkRequest",
      deploymentId: "d",
      sub: "u",
      name: "<script>x</script>",
      role: "learner",
      resourceLink: { id: 'r"1', title: null },
      context: null,
    });
    expect(html).not.toContain("<script>");
    expect(html).toContain("&#60;script&#62;x&#60;/script&#62;");
    expect(html).toContain("r&#34;1");
  });

  it("links the new window's login, escaped, only when asked", () => {
    expect(refusedPage({ code: "cookie-missing" })).not.toContain("open-again");
    const html = refusedPage({ code: "cookie-missing" }, 'https://tool/lti/login?a=1&b="x"');
    expect(html).toContain('<a id="open-again" href="https://tool/lti/login?a=1&#38;b=&#34;x&#34;" target="_blank" rel="noopener">');
  });

  it("says why a launch was refused, with its code", () => {
    const html = refusedPage({ code: "unknown-deployment", detail: 'The LMS sent deployment id "<b>".' });
    expect(html).toContain(
      "This deployment of the tool is not registered with knockout-judge. The LMS sent deployment id &#34;&#60;b&#62;&#34;.",
    );
    expect(html).toContain('<code id="code">unknown-deployment</code>');
  });
});

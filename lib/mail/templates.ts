/** Account emails: plain text and a simple HTML version of the same words. */
export type MailContent = {
  subject: string;
  text: string;
  html: string;
  links: { label: string; url: string }[];
};

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[char]!);
}

function layout(paragraphs: string[], action: { label: string; url: string }, footer: string): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`).join("");
  return `<!doctype html><html><body style="font-family:system-ui,-apple-system,Segoe UI,sans-serif;color:#1f2328;line-height:1.5;max-width:520px;margin:24px auto;padding:0 16px">
${body}<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#3b5bdb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none;display:inline-block">${escapeHtml(action.label)}</a></p>
<p style="margin:0 0 16px;font-size:13px;color:#59636e">Or open this link: <a href="${escapeHtml(action.url)}">${escapeHtml(action.url)}</a></p>
<p style="margin:0;font-size:13px;color:#59636e">${escapeHtml(footer)}</p></body></html>`;
}

export function verificationEmail({ url }: { url: string }): MailContent {
  const label = "Verify email";
  const intro = "Confirm that this is your email address and choose your password to finish creating your Notes account.";
  const why = "Your agents reach your notes through an identity account with this same email, so Notes needs to know it is yours.";
  const footer = "The link works for one hour. If you did not sign up for Notes, ignore this email: nobody can use an account with this address until its link is opened and a password is chosen there.";
  return {
    subject: "Verify your email for Notes",
    text: `${intro}\n\n${why}\n\n${label}: ${url}\n\n${footer}\n`,
    html: layout([intro, why], { label, url }, footer),
    links: [{ label, url }],
  };
}

export function resetPasswordEmail({ url }: { url: string }): MailContent {
  const label = "Choose a new password";
  const intro = "Someone (hopefully you) asked to reset the password of your Notes account.";
  const footer = "The link works for one hour. If you did not ask for this, ignore this email: your password stays as it is.";
  return {
    subject: "Reset your Notes password",
    text: `${intro}\n\n${label}: ${url}\n\n${footer}\n`,
    html: layout([intro], { label, url }, footer),
    links: [{ label, url }],
  };
}

export function existingAccountEmail({ signInUrl }: { signInUrl: string }): MailContent {
  const label = "Sign in";
  const intro = "Someone tried to create a Notes account with this email, but you already have one.";
  const hint = "Sign in instead; if you forgot your password, use “Forgot password?” on the sign-in page.";
  const footer = "If this was not you, you can ignore this email.";
  return {
    subject: "You already have a Notes account",
    text: `${intro}\n\n${hint}\n\n${label}: ${signInUrl}\n\n${footer}\n`,
    html: layout([intro, hint], { label, url: signInUrl }, footer),
    links: [{ label, url: signInUrl }],
  };
}

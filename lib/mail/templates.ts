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

/** One account email: the paragraphs, then the one thing to do (a button, and the link spelled out), then the footer. */
function accountEmail(subject: string, paragraphs: string[], action: { label: string; url: string }, footer: string): MailContent {
  return {
    subject,
    text: `${paragraphs.join("\n\n")}\n\n${action.label}: ${action.url}\n\n${footer}\n`,
    html: layout(paragraphs, action, footer),
    links: [action],
  };
}

export function verificationEmail({ url }: { url: string }): MailContent {
  return accountEmail(
    "Verify your email for Notes",
    [
      "Confirm that this is your email address and choose your password to finish creating your Notes account.",
      "Your agents reach your notes through an identity account with this same email, so Notes needs to know it is yours.",
    ],
    { label: "Verify email", url },
    "The link works for one hour. If you did not sign up for Notes, ignore this email: nobody can use an account with this address until its link is opened and a password is chosen there.",
  );
}

export function resetPasswordEmail({ url }: { url: string }): MailContent {
  return accountEmail(
    "Reset your Notes password",
    ["Someone (hopefully you) asked to reset the password of your Notes account."],
    { label: "Choose a new password", url },
    "The link works for one hour. If you did not ask for this, ignore this email: your password stays as it is.",
  );
}

export function existingAccountEmail({ signInUrl }: { signInUrl: string }): MailContent {
  return accountEmail(
    "You already have a Notes account",
    [
      "Someone tried to create a Notes account with this email, but you already have one.",
      "Sign in instead; if you forgot your password, use “Forgot password?” on the sign-in page.",
    ],
    { label: "Sign in", url: signInUrl },
    "If this was not you, you can ignore this email.",
  );
}

/**
 * Reading the raw messages a test SMTP server (smtp-server) received: headers with their encoded
 * words (RFC 2047), a body in its transfer encoding, the parts of a multipart message.
 */

/** A header block unfolded, and one header's value (raw) from it. */
function headerOf(head: string, name: string): string {
  return new RegExp(`^${name}: (.*)$`, "im").exec(head.replace(/\r\n[ \t]+/g, " "))?.[1] ?? "";
}

/** Quoted-printable bytes as text. */
function fromQuotedPrintable(s: string): string {
  return Buffer.from(
    s.replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
    "latin1",
  ).toString("utf8");
}

/** A header value with its encoded words (`=?utf-8?B?…?=`, `=?utf-8?Q?…?=`) decoded. */
export function decodeWords(v: string): string {
  return v.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
    enc.toLowerCase() === "b" ? Buffer.from(data, "base64").toString("utf8") : fromQuotedPrintable(data.replace(/_/g, " ")),
  );
}

/** One part (or a whole single-part message): its headers and its body decoded to bytes. */
export interface MailPart {
  header: (name: string) => string;
  body: Buffer;
  /** The body as UTF-8 text with "\n" line ends. */
  text: string;
}

/** A raw message or part: headers, then the body in its Content-Transfer-Encoding. */
export function decodePart(raw: string): MailPart {
  const [head, ...rest] = raw.split("\r\n\r\n");
  const header = (name: string) => headerOf(head!, name);
  const body = rest.join("\r\n\r\n");
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  const bytes =
    encoding === "base64"
      ? Buffer.from(body.replace(/\s+/g, ""), "base64")
      : encoding === "quoted-printable"
        ? Buffer.from(fromQuotedPrintable(body.replace(/=\r\n/g, "")), "utf8")
        : Buffer.from(body, "utf8");
  return { header, body: bytes, text: bytes.toString("utf8").replace(/\r\n/g, "\n") };
}

/** The parts of a multipart message (nested multiparts flattened), or the message itself. */
export function mailParts(raw: string): MailPart[] {
  const top = decodePart(raw);
  const boundary = /boundary="?([^";]+)"?/i.exec(top.header("Content-Type"))?.[1];
  if (!boundary) return [top];
  const body = raw.slice(raw.indexOf("\r\n\r\n") + 4);
  return body
    .split(`--${boundary}`)
    .slice(1, -1)
    .flatMap((p) => mailParts(p.replace(/^\r\n/, "").replace(/\r\n$/, "")));
}

/** A single-part message's decoded subject, content type and text body, as a mail client shows them. */
export function decodeMail(raw: string): { subject: string; contentType: string; text: string } {
  const m = decodePart(raw);
  return { subject: decodeWords(m.header("Subject")), contentType: m.header("Content-Type"), text: m.text };
}

/** Reading the mails a local SMTP server (smtp-server) received, as a person's mail client would. */

/** The decoded subject and text body of a raw message. */
export function decodeMail(raw: string) {
  const [head, ...rest] = raw.split("\r\n\r\n");
  const headers = head!.replace(/\r\n[ \t]+/g, " ");
  const header = (name: string) => new RegExp(`^${name}: (.*)$`, "im").exec(headers)?.[1] ?? "";
  const words = (v: string) =>
    v.replace(/=\?utf-8\?([bq])\?([^?]*)\?=\s*/gi, (_m, enc: string, data: string) =>
      enc.toLowerCase() === "b"
        ? Buffer.from(data, "base64").toString("utf8")
        : Buffer.from(
            data.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            "latin1",
          ).toString("utf8"),
    );
  const body = rest.join("\r\n\r\n");
  const encoding = header("Content-Transfer-Encoding").toLowerCase();
  const text =
    encoding === "base64"
      ? Buffer.from(body, "base64").toString("utf8")
      : encoding === "quoted-printable"
        ? Buffer.from(
            body.replace(/=\r\n/g, "").replace(/=([0-9A-F]{2})/gi, (_x, h: string) => String.fromCharCode(parseInt(h, 16))),
            "latin1",
          ).toString("utf8")
        : body;
  return { subject: words(header("Subject")), contentType: header("Content-Type"), text: text.replace(/\r\n/g, "\n") };
}

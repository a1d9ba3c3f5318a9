/** A URL with its percent-encoded Chinese shown as characters (display only; links keep the URL). */
export function readableUrl(url: string): string {
  try {
    return decodeURI(url);
  } catch {
    return url;
  }
}

/** True when `host` is one of `roots` or a subdomain of one (`m.weibo.cn` is on `weibo.cn`). */
export function onHosts(host: string, roots: readonly string[]): boolean {
  return roots.some((r) => host === r || host.endsWith(`.${r}`));
}

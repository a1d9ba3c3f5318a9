import { describe, expect, test } from "vitest";
import { fetchRemoteImage, ImageFetchError, isPrivateAddress } from "@/lib/queries/remote-image";

describe("isPrivateAddress", () => {
  test.each([
    ["127.0.0.1", true],
    ["10.1.2.3", true],
    ["172.16.0.1", true],
    ["172.32.0.1", false],
    ["192.168.1.1", true],
    ["169.254.169.254", true],
    ["100.64.0.1", true],
    ["0.0.0.0", true],
    ["224.0.0.1", true],
    ["8.8.8.8", false],
    ["202.112.0.1", false],
    ["::1", true],
    ["fd00::1", true],
    ["fe80::1", true],
    ["::ffff:127.0.0.1", true],
    ["2001:da8::1", false],
  ])("%s → %s", (ip, expected) => {
    expect(isPrivateAddress(ip)).toBe(expected);
  });
});

describe("fetchRemoteImage", () => {
  test.each([["http://127.0.0.1:9/x.png"], ["http://[::1]/x.png"], ["http://localhost/x.png"]])("refuses %s before any request", async (url) => {
    await expect(fetchRemoteImage(url)).rejects.toBeInstanceOf(ImageFetchError);
  });
  test("refuses non-http schemes", async () => {
    await expect(fetchRemoteImage("file:///etc/passwd")).rejects.toBeInstanceOf(ImageFetchError);
  });
});

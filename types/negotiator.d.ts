// negotiator ships no types (and @types/negotiator is not installed); only what i18n/resolve.ts uses.
declare module "negotiator" {
  interface NegotiatorRequest {
    headers: Record<string, string | string[] | undefined>;
  }
  /** HTTP content negotiation: here only Accept-Language, preferred first (quality, then order). */
  class Negotiator {
    constructor(request: NegotiatorRequest);
    /** The acceptable languages, most preferred first (`*` included when the header has it). */
    languages(available?: string[]): string[];
  }
  export default Negotiator;
}

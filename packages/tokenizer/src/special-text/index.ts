export {
  checkPolicy,
  SPECIAL_TEXT_POLICIES,
  type SpecialTextOptions,
  type SpecialTextPolicy,
  specialTokenError,
} from "./policy.ts";
export { createSpecialScanner, type SpecialMatch, type SpecialScanner } from "./scanner.ts";

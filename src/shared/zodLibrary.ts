/**
 * zod for the protocol's schemas, required on first use (declareMessage.ts): imported here the way
 * every other module imports it, so a bundle holds one build of zod (a bare `require('zod')` would
 * add its CommonJS build beside the ESM one the rest of the bundle uses).
 */
export { z } from 'zod';

/**
 * The topics' part of core, from its own bundle (dist/topicsLibrary.js, see topicsLibrary.ts),
 * loaded when a topic command, the Topics view or @lore's gate first needs it.
 */
import { lazy } from '../../core/base/lazy';

export const topicsLibrary = lazy(() => require('./topicsLibrary') as typeof import('./topicsLibrary'));

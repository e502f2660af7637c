import { describeSearchBackend } from './backendSuite';

describeSearchBackend('minisearch');

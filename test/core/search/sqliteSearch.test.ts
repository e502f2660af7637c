import { describeSearchBackend } from './backendSuite';

describeSearchBackend('sqlite');
describeSearchBackend('sqlite', 'node:sqlite');

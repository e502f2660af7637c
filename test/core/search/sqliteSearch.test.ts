import { describeSearchBackend } from './backendSuite';

describeSearchBackend('sqlite');

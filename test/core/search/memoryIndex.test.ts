import { describeSearchBackend } from './backendSuite';

describeSearchBackend('memory');

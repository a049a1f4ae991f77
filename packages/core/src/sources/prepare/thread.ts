import { serveThread } from '../../threads/serve.ts';
import { prepareDocument } from './prepare.ts';

// Worker-thread entry: prepares documents, one request at a time.
serveThread(prepareDocument);

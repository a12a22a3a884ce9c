/** For tests: answer a GET path from an app as the REST server would (HTTP status and body). */
import { type Observers } from '../../modules/framework/observers';
import { type QueryAnswer } from '../../app/queryRouter';
import { type QueryResponse, restQueryReply } from '../rest/queryReply';

export function restQuery(
  app: { query(path: string, observers?: Observers): QueryAnswer },
  path: string,
  observers?: Observers,
): QueryResponse {
  return restQueryReply(app.query(path, observers));
}

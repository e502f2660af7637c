/**
 * Task memory as the extension asks for it: the side tables live in the language server
 * (src/server/serverTasks.ts); this sends the requests.
 */
import { TaskTimelineRequest, TaskToolRequest, TasksListRequest } from '../../shared/protocol';
import type { LoreServerClient } from '../loreServerClient';
import type { ParamsOf, ResultOf } from '../../shared/declareMessage';

export class TasksClient {
  constructor(private readonly notes: LoreServerClient) {}

  async tool(params: ParamsOf<typeof TaskToolRequest>): Promise<ResultOf<typeof TaskToolRequest>> {
    return (await this.running()).sendRequest(TaskToolRequest.type, params);
  }

  async list(): Promise<ResultOf<typeof TasksListRequest>> {
    return (await this.running()).sendRequest(TasksListRequest.type, {});
  }

  async timeline(taskId: string): Promise<ResultOf<typeof TaskTimelineRequest>> {
    return (await this.running()).sendRequest(TaskTimelineRequest.type, { taskId });
  }

  private async running() {
    const client = await this.notes.ready();
    if (!client?.isRunning()) throw new Error('the Lore language server is not running, so task memory is unavailable (see the Lore log)');
    return client;
  }
}

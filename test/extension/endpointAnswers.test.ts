/** The URL and model "Choose How to Distill" asks for (src/extension/providers/endpointAnswers.ts has no vscode import). */
import * as assert from 'node:assert/strict';
import { baseUrlProblem, baseUrlToKeep, modelToKeep } from '../../src/extension/providers/endpointAnswers';

describe('the server address and model asked for with a provider', () => {
  it('takes http and https addresses and says in words what is wrong with others', () => {
    assert.equal(baseUrlProblem('https://api.openai.com/v1'), undefined);
    assert.equal(baseUrlProblem(' http://localhost:1234/v1 '), undefined);
    assert.match(baseUrlProblem('')!, /Enter the server address/);
    assert.match(baseUrlProblem('localhost:1234')!, /http:\/\/ or https:\/\//);
    assert.match(baseUrlProblem('not a url')!, /not a web address/);
    assert.match(baseUrlProblem('ftp://example.com')!, /http:\/\/ or https:\/\//);
    assert.match(baseUrlProblem('http://localhost:1234/v1?key=x')!, /after \? or #/);
  });

  it("keeps only what differs from the provider's default, without a trailing slash", () => {
    assert.equal(baseUrlToKeep('openai', 'https://api.openai.com/v1/'), undefined);
    assert.equal(baseUrlToKeep('openai', ' http://localhost:1234/v1/ '), 'http://localhost:1234/v1');
    assert.equal(baseUrlToKeep('ollama', 'http://127.0.0.1:11434'), undefined);
    assert.equal(baseUrlToKeep('ollama', 'http://gpu-box:11434'), 'http://gpu-box:11434');
    assert.equal(modelToKeep('openai', 'gpt-4o-mini'), undefined);
    assert.equal(modelToKeep('openai', '  '), undefined);
    assert.equal(modelToKeep('openai', ' qwen2.5-coder '), 'qwen2.5-coder');
  });
});

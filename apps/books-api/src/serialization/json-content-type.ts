/**
 * The content type of every JSON answer, as Fastify itself names it for a JSON body. Answers
 * written outside Fastify's serialisation (error bodies, pages sent as bytes, Node's own error
 * answers) set it from here, so all of them say the same.
 */
export const JSON_CONTENT_TYPE = 'application/json; charset=utf-8';

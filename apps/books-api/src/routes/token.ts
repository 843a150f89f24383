import formbody from '@fastify/formbody'
import multipart from '@fastify/multipart'
import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance } from 'fastify'
import { parseLoginForm } from '../auth/login-form.js'
import { createLoginThrottle } from '../auth/login-throttle.js'
import { serviceUnavailable, unauthorized } from '../errors.js'

// A login form is a few short fields; anything bigger is not a login.
const FORM_BODY_LIMIT = 64 * 1024

/**
 * POST /token: the OAuth 2.0 password grant. The form parsers and the limiters are
 * registered in this plugin's scope only, so the books routes keep answering 415 to forms.
 */
export default async function tokenRoutes(app: FastifyInstance) {
  await app.register(formbody, { bodyLimit: FORM_BODY_LIMIT })
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: { fields: 10, fieldSize: FORM_BODY_LIMIT, files: 0, parts: 10 },
  })
  await app.register(rateLimit, { global: false })
  const throttle = createLoginThrottle(app, app.auth.settings.loginThrottle)
  const { credentials } = app.auth

  app.post(
    '/token',
    {
      bodyLimit: FORM_BODY_LIMIT,
      onRequest: async () => {
        if (app.auth.tokens === null) throw serviceUnavailable('Token login is not configured')
      },
    },
    async (request) => {
      const form = parseLoginForm(request.body)
      await throttle.assertNotBlocked(request, form.username)
      const account = await credentials.check(form.username, form.password)
      if (account === null) {
        await throttle.recordFailure(request, form.username)
        request.log.info({ username: form.username }, 'failed login')
        throw unauthorized('Incorrect credentials')
      }
      // Checked in onRequest; read again so the type narrows.
      const tokens = app.auth.tokens
      if (tokens === null) throw serviceUnavailable('Token login is not configured')
      return tokens.issue({ sub: account.username, roles: account.roles })
    },
  )
}

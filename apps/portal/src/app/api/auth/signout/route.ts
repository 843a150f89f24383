import { methodNotAllowed } from '@/server/http/handle-route';
import { signOut } from '@/server/services/sign-in-flow';

export const dynamic = 'force-dynamic';

/** POST (a same-origin form): ends the session here and at the provider. */
export const POST = signOut;
export const GET = methodNotAllowed(['POST']);

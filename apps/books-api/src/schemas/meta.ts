import Type from 'typebox';

const RootInfo = Type.Object(
  {
    name: Type.String(),
    version: Type.String(),
    docs_url: Type.String(),
    redoc_url: Type.String(),
    openapi_url: Type.String(),
    traffic_generator_enabled: Type.Boolean(),
    chaos_headers_enabled: Type.Boolean(),
  },
  { $id: 'RootInfo', title: 'RootInfo' },
);

const Health = Type.Object(
  {
    status: Type.Literal('ok'),
    books: Type.Integer({ description: 'Current number of books' }),
    traffic_generator_enabled: Type.Boolean(),
    chaos_headers_enabled: Type.Boolean(),
    uptime_seconds: Type.Number(),
  },
  { $id: 'Health', title: 'Health' },
);

const MethodList = Type.Object({ methods: Type.Array(Type.String()) }, { $id: 'MethodList', title: 'MethodList' });

export const metaSchemas = [RootInfo, Health, MethodList];

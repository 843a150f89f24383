/** Every page of the portal in development mode, with the heading it must show: the accessibility checks visit each. */
export const EVERY_PAGE: [path: string, heading: string | RegExp][] = [
  ['/', 'Self-service cloud platform'],
  ['/catalog', 'Catalog'],
  ['/catalog/azure-storage', 'New Azure storage account'],
  ['/resources', 'Resources'],
  ['/resources?state=Ready', 'Resources'],
  ['/applications', 'Applications'],
  ['/settings', 'Settings'],
  ['/resources/stdemo01', 'stdemo01'],
  ['/no-such-page', 'Page not found'],
];

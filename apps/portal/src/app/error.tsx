'use client';
export { ErrorState as default } from '@/components/common/ErrorState';

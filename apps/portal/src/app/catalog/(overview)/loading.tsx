import { LoadingState } from '@/components/common/LoadingState';

export default function Loading() {
  return <LoadingState />;
}

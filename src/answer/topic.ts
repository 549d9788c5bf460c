// A topic as answers name it: its ID, and what its configuration says
// about it (render/topic.ts writes it).

export interface TopicLabel {
  id: string;
  title?: string;
  introduction?: string;
  description?: string;
}

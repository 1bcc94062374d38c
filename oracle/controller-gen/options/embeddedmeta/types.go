// Package v1 is the embeddedmeta fixture: an ObjectMeta embedded below the
// root, directly and inside a Kubernetes template type.
// controller-gen runs on it with crd:generateEmbeddedObjectMeta=true.
// +groupName=embeddedmeta.example.com
package v1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// WorkerTemplate is what each worker is created from.
type WorkerTemplate struct {
	// Metadata given to every worker.
	// +optional
	metav1.ObjectMeta `json:"metadata,omitempty"`

	// Image the workers run.
	Image string `json:"image"`
}

// PoolSpec is the desired state of a Pool.
type PoolSpec struct {
	// Template of each worker.
	Template WorkerTemplate `json:"template"`

	// Claims each worker gets a volume from.
	// +optional
	Claims []corev1.PersistentVolumeClaimTemplate `json:"claims,omitempty"`
}

// Pool is the Schema for the pools API.
// +kubebuilder:object:root=true
type Pool struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec PoolSpec `json:"spec"`
}

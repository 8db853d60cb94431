/*
 * api_jobshape.c - runtime/api.h: the JSON fields of every Go struct a
 * batch/v1 Job holds, as kube-apiserver's strict decoding knows them
 * (qf_api_job_unknown_fields walks them).  Data, one row per struct,
 * taken from the json tags of k8s.io/api v0.32 batch/v1 and core/v1
 * types.go and k8s.io/apimachinery v0.32 meta/v1 types.go (inline
 * structs merged into their holder); a field leads to another struct of
 * the table (or a list of them), or is a leaf: a scalar, a map, or a
 * type with a JSON form of its own (Time, Quantity, IntOrString,
 * FieldsV1).  Row 0 is the Job.  No struct holds itself, so a walk is
 * at most QF_API_JOBSHAPE_DEPTH structs deep.
 */
#include "runtime/api.h"

#include "core/status.h"
#include "core/banned.h"

static const struct qf_api_jobfield f_batch_Job[] = {
	{ "apiVersion", -1, 0 }, { "kind", -1, 0 },  { "metadata", 1, 0 },
	{ "spec", 2, 0 },        { "status", 3, 0 },
};
static const struct qf_api_jobfield f_meta_ObjectMeta[] = {
	{ "annotations", -1, 0 },
	{ "creationTimestamp", -1, 0 },
	{ "deletionGracePeriodSeconds", -1, 0 },
	{ "deletionTimestamp", -1, 0 },
	{ "finalizers", -1, 0 },
	{ "generateName", -1, 0 },
	{ "generation", -1, 0 },
	{ "labels", -1, 0 },
	{ "managedFields", 5, 1 },
	{ "name", -1, 0 },
	{ "namespace", -1, 0 },
	{ "ownerReferences", 4, 1 },
	{ "resourceVersion", -1, 0 },
	{ "selfLink", -1, 0 },
	{ "uid", -1, 0 },
};
static const struct qf_api_jobfield f_batch_JobSpec[] = {
	{ "activeDeadlineSeconds", -1, 0 },
	{ "backoffLimit", -1, 0 },
	{ "backoffLimitPerIndex", -1, 0 },
	{ "completionMode", -1, 0 },
	{ "completions", -1, 0 },
	{ "managedBy", -1, 0 },
	{ "manualSelector", -1, 0 },
	{ "maxFailedIndexes", -1, 0 },
	{ "parallelism", -1, 0 },
	{ "podFailurePolicy", 6, 0 },
	{ "podReplacementPolicy", -1, 0 },
	{ "selector", 8, 0 },
	{ "successPolicy", 7, 0 },
	{ "suspend", -1, 0 },
	{ "template", 9, 0 },
	{ "ttlSecondsAfterFinished", -1, 0 },
};
static const struct qf_api_jobfield f_batch_JobStatus[] = {
	{ "active", -1, 0 },
	{ "completedIndexes", -1, 0 },
	{ "completionTime", -1, 0 },
	{ "conditions", 10, 1 },
	{ "failed", -1, 0 },
	{ "failedIndexes", -1, 0 },
	{ "ready", -1, 0 },
	{ "startTime", -1, 0 },
	{ "succeeded", -1, 0 },
	{ "terminating", -1, 0 },
	{ "uncountedTerminatedPods", 11, 0 },
};
static const struct qf_api_jobfield f_meta_OwnerReference[] = {
	{ "apiVersion", -1, 0 }, { "blockOwnerDeletion", -1, 0 },
	{ "controller", -1, 0 }, { "kind", -1, 0 },
	{ "name", -1, 0 },       { "uid", -1, 0 },
};
static const struct qf_api_jobfield f_meta_ManagedFieldsEntry[] = {
	{ "apiVersion", -1, 0 }, { "fieldsType", -1, 0 },
	{ "fieldsV1", -1, 0 },   { "manager", -1, 0 },
	{ "operation", -1, 0 },  { "subresource", -1, 0 },
	{ "time", -1, 0 },
};
static const struct qf_api_jobfield f_batch_PodFailurePolicy[] = {
	{ "rules", 12, 1 },
};
static const struct qf_api_jobfield f_batch_SuccessPolicy[] = {
	{ "rules", 13, 1 },
};
static const struct qf_api_jobfield f_meta_LabelSelector[] = {
	{ "matchExpressions", 14, 1 },
	{ "matchLabels", -1, 0 },
};
static const struct qf_api_jobfield f_core_PodTemplateSpec[] = {
	{ "metadata", 1, 0 },
	{ "spec", 15, 0 },
};
static const struct qf_api_jobfield f_batch_JobCondition[] = {
	{ "lastProbeTime", -1, 0 }, { "lastTransitionTime", -1, 0 },
	{ "message", -1, 0 },       { "reason", -1, 0 },
	{ "status", -1, 0 },        { "type", -1, 0 },
};
static const struct qf_api_jobfield f_batch_UncountedTerminatedPods[] = {
	{ "failed", -1, 0 },
	{ "succeeded", -1, 0 },
};
static const struct qf_api_jobfield f_batch_PodFailurePolicyRule[] = {
	{ "action", -1, 0 },
	{ "onExitCodes", 16, 0 },
	{ "onPodConditions", 17, 1 },
};
static const struct qf_api_jobfield f_batch_SuccessPolicyRule[] = {
	{ "succeededCount", -1, 0 },
	{ "succeededIndexes", -1, 0 },
};
static const struct qf_api_jobfield f_meta_LabelSelectorRequirement[] = {
	{ "key", -1, 0 },
	{ "operator", -1, 0 },
	{ "values", -1, 0 },
};
static const struct qf_api_jobfield f_core_PodSpec[] = {
	{ "activeDeadlineSeconds", -1, 0 },
	{ "affinity", 23, 0 },
	{ "automountServiceAccountToken", -1, 0 },
	{ "containers", 19, 1 },
	{ "dnsConfig", 26, 0 },
	{ "dnsPolicy", -1, 0 },
	{ "enableServiceLinks", -1, 0 },
	{ "ephemeralContainers", 20, 1 },
	{ "hostAliases", 25, 1 },
	{ "hostIPC", -1, 0 },
	{ "hostNetwork", -1, 0 },
	{ "hostPID", -1, 0 },
	{ "hostUsers", -1, 0 },
	{ "hostname", -1, 0 },
	{ "imagePullSecrets", 22, 1 },
	{ "initContainers", 19, 1 },
	{ "nodeName", -1, 0 },
	{ "nodeSelector", -1, 0 },
	{ "os", 29, 0 },
	{ "overhead", -1, 0 },
	{ "preemptionPolicy", -1, 0 },
	{ "priority", -1, 0 },
	{ "priorityClassName", -1, 0 },
	{ "readinessGates", 27, 1 },
	{ "resourceClaims", 31, 1 },
	{ "resources", 32, 0 },
	{ "restartPolicy", -1, 0 },
	{ "runtimeClassName", -1, 0 },
	{ "schedulerName", -1, 0 },
	{ "schedulingGates", 30, 1 },
	{ "securityContext", 21, 0 },
	{ "serviceAccount", -1, 0 },
	{ "serviceAccountName", -1, 0 },
	{ "setHostnameAsFQDN", -1, 0 },
	{ "shareProcessNamespace", -1, 0 },
	{ "subdomain", -1, 0 },
	{ "terminationGracePeriodSeconds", -1, 0 },
	{ "tolerations", 24, 1 },
	{ "topologySpreadConstraints", 28, 1 },
	{ "volumes", 18, 1 },
};
static const struct qf_api_jobfield
        f_batch_PodFailurePolicyOnExitCodesRequirement[] = {
	        { "containerName", -1, 0 },
	        { "operator", -1, 0 },
	        { "values", -1, 0 },
        };
static const struct qf_api_jobfield
        f_batch_PodFailurePolicyOnPodConditionsPattern[] = {
	        { "status", -1, 0 },
	        { "type", -1, 0 },
        };
static const struct qf_api_jobfield f_core_Volume[] = {
	{ "awsElasticBlockStore", 36, 0 },
	{ "azureDisk", 54, 0 },
	{ "azureFile", 50, 0 },
	{ "cephfs", 46, 0 },
	{ "cinder", 45, 0 },
	{ "configMap", 51, 0 },
	{ "csi", 60, 0 },
	{ "downwardAPI", 48, 0 },
	{ "emptyDir", 34, 0 },
	{ "ephemeral", 61, 0 },
	{ "fc", 49, 0 },
	{ "flexVolume", 44, 0 },
	{ "flocker", 47, 0 },
	{ "gcePersistentDisk", 35, 0 },
	{ "gitRepo", 37, 0 },
	{ "glusterfs", 41, 0 },
	{ "hostPath", 33, 0 },
	{ "image", 62, 0 },
	{ "iscsi", 40, 0 },
	{ "name", -1, 0 },
	{ "nfs", 39, 0 },
	{ "persistentVolumeClaim", 42, 0 },
	{ "photonPersistentDisk", 55, 0 },
	{ "portworxVolume", 57, 0 },
	{ "projected", 56, 0 },
	{ "quobyte", 53, 0 },
	{ "rbd", 43, 0 },
	{ "scaleIO", 58, 0 },
	{ "secret", 38, 0 },
	{ "storageos", 59, 0 },
	{ "vsphereVolume", 52, 0 },
};
static const struct qf_api_jobfield f_core_Container[] = {
	{ "args", -1, 0 },
	{ "command", -1, 0 },
	{ "env", 65, 1 },
	{ "envFrom", 64, 1 },
	{ "image", -1, 0 },
	{ "imagePullPolicy", -1, 0 },
	{ "lifecycle", 70, 0 },
	{ "livenessProbe", 69, 0 },
	{ "name", -1, 0 },
	{ "ports", 63, 1 },
	{ "readinessProbe", 69, 0 },
	{ "resizePolicy", 66, 1 },
	{ "resources", 32, 0 },
	{ "restartPolicy", -1, 0 },
	{ "securityContext", 71, 0 },
	{ "startupProbe", 69, 0 },
	{ "stdin", -1, 0 },
	{ "stdinOnce", -1, 0 },
	{ "terminationMessagePath", -1, 0 },
	{ "terminationMessagePolicy", -1, 0 },
	{ "tty", -1, 0 },
	{ "volumeDevices", 68, 1 },
	{ "volumeMounts", 67, 1 },
	{ "workingDir", -1, 0 },
};
static const struct qf_api_jobfield f_core_EphemeralContainer[] = {
	{ "args", -1, 0 },
	{ "command", -1, 0 },
	{ "env", 65, 1 },
	{ "envFrom", 64, 1 },
	{ "image", -1, 0 },
	{ "imagePullPolicy", -1, 0 },
	{ "lifecycle", 70, 0 },
	{ "livenessProbe", 69, 0 },
	{ "name", -1, 0 },
	{ "ports", 63, 1 },
	{ "readinessProbe", 69, 0 },
	{ "resizePolicy", 66, 1 },
	{ "resources", 32, 0 },
	{ "restartPolicy", -1, 0 },
	{ "securityContext", 71, 0 },
	{ "startupProbe", 69, 0 },
	{ "stdin", -1, 0 },
	{ "stdinOnce", -1, 0 },
	{ "targetContainerName", -1, 0 },
	{ "terminationMessagePath", -1, 0 },
	{ "terminationMessagePolicy", -1, 0 },
	{ "tty", -1, 0 },
	{ "volumeDevices", 68, 1 },
	{ "volumeMounts", 67, 1 },
	{ "workingDir", -1, 0 },
};
static const struct qf_api_jobfield f_core_PodSecurityContext[] = {
	{ "appArmorProfile", 76, 0 },
	{ "fsGroup", -1, 0 },
	{ "fsGroupChangePolicy", -1, 0 },
	{ "runAsGroup", -1, 0 },
	{ "runAsNonRoot", -1, 0 },
	{ "runAsUser", -1, 0 },
	{ "seLinuxChangePolicy", -1, 0 },
	{ "seLinuxOptions", 72, 0 },
	{ "seccompProfile", 75, 0 },
	{ "supplementalGroups", -1, 0 },
	{ "supplementalGroupsPolicy", -1, 0 },
	{ "sysctls", 74, 1 },
	{ "windowsOptions", 73, 0 },
};
static const struct qf_api_jobfield f_core_LocalObjectReference[] = {
	{ "name", -1, 0 },
};
static const struct qf_api_jobfield f_core_Affinity[] = {
	{ "nodeAffinity", 77, 0 },
	{ "podAffinity", 78, 0 },
	{ "podAntiAffinity", 79, 0 },
};
static const struct qf_api_jobfield f_core_Toleration[] = {
	{ "effect", -1, 0 },   { "key", -1, 0 },
	{ "operator", -1, 0 }, { "tolerationSeconds", -1, 0 },
	{ "value", -1, 0 },
};
static const struct qf_api_jobfield f_core_HostAlias[] = {
	{ "hostnames", -1, 0 },
	{ "ip", -1, 0 },
};
static const struct qf_api_jobfield f_core_PodDNSConfig[] = {
	{ "nameservers", -1, 0 },
	{ "options", 80, 1 },
	{ "searches", -1, 0 },
};
static const struct qf_api_jobfield f_core_PodReadinessGate[] = {
	{ "conditionType", -1, 0 },
};
static const struct qf_api_jobfield f_core_TopologySpreadConstraint[] = {
	{ "labelSelector", 8, 0 },
	{ "matchLabelKeys", -1, 0 },
	{ "maxSkew", -1, 0 },
	{ "minDomains", -1, 0 },
	{ "nodeAffinityPolicy", -1, 0 },
	{ "nodeTaintsPolicy", -1, 0 },
	{ "topologyKey", -1, 0 },
	{ "whenUnsatisfiable", -1, 0 },
};
static const struct qf_api_jobfield f_core_PodOS[] = {
	{ "name", -1, 0 },
};
static const struct qf_api_jobfield f_core_PodSchedulingGate[] = {
	{ "name", -1, 0 },
};
static const struct qf_api_jobfield f_core_PodResourceClaim[] = {
	{ "name", -1, 0 },
	{ "resourceClaimName", -1, 0 },
	{ "resourceClaimTemplateName", -1, 0 },
};
static const struct qf_api_jobfield f_core_ResourceRequirements[] = {
	{ "claims", 81, 1 },
	{ "limits", -1, 0 },
	{ "requests", -1, 0 },
};
static const struct qf_api_jobfield f_core_HostPathVolumeSource[] = {
	{ "path", -1, 0 },
	{ "type", -1, 0 },
};
static const struct qf_api_jobfield f_core_EmptyDirVolumeSource[] = {
	{ "medium", -1, 0 },
	{ "sizeLimit", -1, 0 },
};
static const struct qf_api_jobfield f_core_GCEPersistentDiskVolumeSource[] = {
	{ "fsType", -1, 0 },
	{ "partition", -1, 0 },
	{ "pdName", -1, 0 },
	{ "readOnly", -1, 0 },
};
static const struct qf_api_jobfield
        f_core_AWSElasticBlockStoreVolumeSource[] = {
	        { "fsType", -1, 0 },
	        { "partition", -1, 0 },
	        { "readOnly", -1, 0 },
	        { "volumeID", -1, 0 },
        };
static const struct qf_api_jobfield f_core_GitRepoVolumeSource[] = {
	{ "directory", -1, 0 },
	{ "repository", -1, 0 },
	{ "revision", -1, 0 },
};
static const struct qf_api_jobfield f_core_SecretVolumeSource[] = {
	{ "defaultMode", -1, 0 },
	{ "items", 82, 1 },
	{ "optional", -1, 0 },
	{ "secretName", -1, 0 },
};
static const struct qf_api_jobfield f_core_NFSVolumeSource[] = {
	{ "path", -1, 0 },
	{ "readOnly", -1, 0 },
	{ "server", -1, 0 },
};
static const struct qf_api_jobfield f_core_ISCSIVolumeSource[] = {
	{ "chapAuthDiscovery", -1, 0 },
	{ "chapAuthSession", -1, 0 },
	{ "fsType", -1, 0 },
	{ "initiatorName", -1, 0 },
	{ "iqn", -1, 0 },
	{ "iscsiInterface", -1, 0 },
	{ "lun", -1, 0 },
	{ "portals", -1, 0 },
	{ "readOnly", -1, 0 },
	{ "secretRef", 22, 0 },
	{ "targetPortal", -1, 0 },
};
static const struct qf_api_jobfield f_core_GlusterfsVolumeSource[] = {
	{ "endpoints", -1, 0 },
	{ "path", -1, 0 },
	{ "readOnly", -1, 0 },
};
static const struct qf_api_jobfield
        f_core_PersistentVolumeClaimVolumeSource[] = {
	        { "claimName", -1, 0 },
	        { "readOnly", -1, 0 },
        };
static const struct qf_api_jobfield f_core_RBDVolumeSource[] = {
	{ "fsType", -1, 0 },    { "image", -1, 0 }, { "keyring", -1, 0 },
	{ "monitors", -1, 0 },  { "pool", -1, 0 },  { "readOnly", -1, 0 },
	{ "secretRef", 22, 0 }, { "user", -1, 0 },
};
static const struct qf_api_jobfield f_core_FlexVolumeSource[] = {
	{ "driver", -1, 0 },   { "fsType", -1, 0 },    { "options", -1, 0 },
	{ "readOnly", -1, 0 }, { "secretRef", 22, 0 },
};
static const struct qf_api_jobfield f_core_CinderVolumeSource[] = {
	{ "fsType", -1, 0 },
	{ "readOnly", -1, 0 },
	{ "secretRef", 22, 0 },
	{ "volumeID", -1, 0 },
};
static const struct qf_api_jobfield f_core_CephFSVolumeSource[] = {
	{ "monitors", -1, 0 },   { "path", -1, 0 },      { "readOnly", -1, 0 },
	{ "secretFile", -1, 0 }, { "secretRef", 22, 0 }, { "user", -1, 0 },
};
static const struct qf_api_jobfield f_core_FlockerVolumeSource[] = {
	{ "datasetName", -1, 0 },
	{ "datasetUUID", -1, 0 },
};
static const struct qf_api_jobfield f_core_DownwardAPIVolumeSource[] = {
	{ "defaultMode", -1, 0 },
	{ "items", 83, 1 },
};
static const struct qf_api_jobfield f_core_FCVolumeSource[] = {
	{ "fsType", -1, 0 },     { "lun", -1, 0 },   { "readOnly", -1, 0 },
	{ "targetWWNs", -1, 0 }, { "wwids", -1, 0 },
};
static const struct qf_api_jobfield f_core_AzureFileVolumeSource[] = {
	{ "readOnly", -1, 0 },
	{ "secretName", -1, 0 },
	{ "shareName", -1, 0 },
};
static const struct qf_api_jobfield f_core_ConfigMapVolumeSource[] = {
	{ "defaultMode", -1, 0 },
	{ "items", 82, 1 },
	{ "name", -1, 0 },
	{ "optional", -1, 0 },
};
static const struct qf_api_jobfield f_core_VsphereVirtualDiskVolumeSource[] = {
	{ "fsType", -1, 0 },
	{ "storagePolicyID", -1, 0 },
	{ "storagePolicyName", -1, 0 },
	{ "volumePath", -1, 0 },
};
static const struct qf_api_jobfield f_core_QuobyteVolumeSource[] = {
	{ "group", -1, 0 },  { "readOnly", -1, 0 }, { "registry", -1, 0 },
	{ "tenant", -1, 0 }, { "user", -1, 0 },     { "volume", -1, 0 },
};
static const struct qf_api_jobfield f_core_AzureDiskVolumeSource[] = {
	{ "cachingMode", -1, 0 }, { "diskName", -1, 0 }, { "diskURI", -1, 0 },
	{ "fsType", -1, 0 },      { "kind", -1, 0 },     { "readOnly", -1, 0 },
};
static const struct qf_api_jobfield
        f_core_PhotonPersistentDiskVolumeSource[] = {
	        { "fsType", -1, 0 },
	        { "pdID", -1, 0 },
        };
static const struct qf_api_jobfield f_core_ProjectedVolumeSource[] = {
	{ "defaultMode", -1, 0 },
	{ "sources", 84, 1 },
};
static const struct qf_api_jobfield f_core_PortworxVolumeSource[] = {
	{ "fsType", -1, 0 },
	{ "readOnly", -1, 0 },
	{ "volumeID", -1, 0 },
};
static const struct qf_api_jobfield f_core_ScaleIOVolumeSource[] = {
	{ "fsType", -1, 0 },           { "gateway", -1, 0 },
	{ "protectionDomain", -1, 0 }, { "readOnly", -1, 0 },
	{ "secretRef", 22, 0 },        { "sslEnabled", -1, 0 },
	{ "storageMode", -1, 0 },      { "storagePool", -1, 0 },
	{ "system", -1, 0 },           { "volumeName", -1, 0 },
};
static const struct qf_api_jobfield f_core_StorageOSVolumeSource[] = {
	{ "fsType", -1, 0 },          { "readOnly", -1, 0 },
	{ "secretRef", 22, 0 },       { "volumeName", -1, 0 },
	{ "volumeNamespace", -1, 0 },
};
static const struct qf_api_jobfield f_core_CSIVolumeSource[] = {
	{ "driver", -1, 0 },
	{ "fsType", -1, 0 },
	{ "nodePublishSecretRef", 22, 0 },
	{ "readOnly", -1, 0 },
	{ "volumeAttributes", -1, 0 },
};
static const struct qf_api_jobfield f_core_EphemeralVolumeSource[] = {
	{ "volumeClaimTemplate", 85, 0 },
};
static const struct qf_api_jobfield f_core_ImageVolumeSource[] = {
	{ "pullPolicy", -1, 0 },
	{ "reference", -1, 0 },
};
static const struct qf_api_jobfield f_core_ContainerPort[] = {
	{ "containerPort", -1, 0 }, { "hostIP", -1, 0 },
	{ "hostPort", -1, 0 },      { "name", -1, 0 },
	{ "protocol", -1, 0 },
};
static const struct qf_api_jobfield f_core_EnvFromSource[] = {
	{ "configMapRef", 86, 0 },
	{ "prefix", -1, 0 },
	{ "secretRef", 87, 0 },
};
static const struct qf_api_jobfield f_core_EnvVar[] = {
	{ "name", -1, 0 },
	{ "value", -1, 0 },
	{ "valueFrom", 88, 0 },
};
static const struct qf_api_jobfield f_core_ContainerResizePolicy[] = {
	{ "resourceName", -1, 0 },
	{ "restartPolicy", -1, 0 },
};
static const struct qf_api_jobfield f_core_VolumeMount[] = {
	{ "mountPath", -1, 0 },
	{ "mountPropagation", -1, 0 },
	{ "name", -1, 0 },
	{ "readOnly", -1, 0 },
	{ "recursiveReadOnly", -1, 0 },
	{ "subPath", -1, 0 },
	{ "subPathExpr", -1, 0 },
};
static const struct qf_api_jobfield f_core_VolumeDevice[] = {
	{ "devicePath", -1, 0 },
	{ "name", -1, 0 },
};
static const struct qf_api_jobfield f_core_Probe[] = {
	{ "exec", 89, 0 },
	{ "failureThreshold", -1, 0 },
	{ "grpc", 92, 0 },
	{ "httpGet", 90, 0 },
	{ "initialDelaySeconds", -1, 0 },
	{ "periodSeconds", -1, 0 },
	{ "successThreshold", -1, 0 },
	{ "tcpSocket", 91, 0 },
	{ "terminationGracePeriodSeconds", -1, 0 },
	{ "timeoutSeconds", -1, 0 },
};
static const struct qf_api_jobfield f_core_Lifecycle[] = {
	{ "postStart", 93, 0 },
	{ "preStop", 93, 0 },
};
static const struct qf_api_jobfield f_core_SecurityContext[] = {
	{ "allowPrivilegeEscalation", -1, 0 },
	{ "appArmorProfile", 76, 0 },
	{ "capabilities", 94, 0 },
	{ "privileged", -1, 0 },
	{ "procMount", -1, 0 },
	{ "readOnlyRootFilesystem", -1, 0 },
	{ "runAsGroup", -1, 0 },
	{ "runAsNonRoot", -1, 0 },
	{ "runAsUser", -1, 0 },
	{ "seLinuxOptions", 72, 0 },
	{ "seccompProfile", 75, 0 },
	{ "windowsOptions", 73, 0 },
};
static const struct qf_api_jobfield f_core_SELinuxOptions[] = {
	{ "level", -1, 0 },
	{ "role", -1, 0 },
	{ "type", -1, 0 },
	{ "user", -1, 0 },
};
static const struct qf_api_jobfield f_core_WindowsSecurityContextOptions[] = {
	{ "gmsaCredentialSpec", -1, 0 },
	{ "gmsaCredentialSpecName", -1, 0 },
	{ "hostProcess", -1, 0 },
	{ "runAsUserName", -1, 0 },
};
static const struct qf_api_jobfield f_core_Sysctl[] = {
	{ "name", -1, 0 },
	{ "value", -1, 0 },
};
static const struct qf_api_jobfield f_core_SeccompProfile[] = {
	{ "localhostProfile", -1, 0 },
	{ "type", -1, 0 },
};
static const struct qf_api_jobfield f_core_AppArmorProfile[] = {
	{ "localhostProfile", -1, 0 },
	{ "type", -1, 0 },
};
static const struct qf_api_jobfield f_core_NodeAffinity[] = {
	{ "preferredDuringSchedulingIgnoredDuringExecution", 96, 1 },
	{ "requiredDuringSchedulingIgnoredDuringExecution", 95, 0 },
};
static const struct qf_api_jobfield f_core_PodAffinity[] = {
	{ "preferredDuringSchedulingIgnoredDuringExecution", 98, 1 },
	{ "requiredDuringSchedulingIgnoredDuringExecution", 97, 1 },
};
static const struct qf_api_jobfield f_core_PodAntiAffinity[] = {
	{ "preferredDuringSchedulingIgnoredDuringExecution", 98, 1 },
	{ "requiredDuringSchedulingIgnoredDuringExecution", 97, 1 },
};
static const struct qf_api_jobfield f_core_PodDNSConfigOption[] = {
	{ "name", -1, 0 },
	{ "value", -1, 0 },
};
static const struct qf_api_jobfield f_core_ResourceClaim[] = {
	{ "name", -1, 0 },
	{ "request", -1, 0 },
};
static const struct qf_api_jobfield f_core_KeyToPath[] = {
	{ "key", -1, 0 },
	{ "mode", -1, 0 },
	{ "path", -1, 0 },
};
static const struct qf_api_jobfield f_core_DownwardAPIVolumeFile[] = {
	{ "fieldRef", 99, 0 },
	{ "mode", -1, 0 },
	{ "path", -1, 0 },
	{ "resourceFieldRef", 100, 0 },
};
static const struct qf_api_jobfield f_core_VolumeProjection[] = {
	{ "clusterTrustBundle", 105, 0 },  { "configMap", 103, 0 },
	{ "downwardAPI", 102, 0 },         { "secret", 101, 0 },
	{ "serviceAccountToken", 104, 0 },
};
static const struct qf_api_jobfield f_core_PersistentVolumeClaimTemplate[] = {
	{ "metadata", 1, 0 },
	{ "spec", 106, 0 },
};
static const struct qf_api_jobfield f_core_ConfigMapEnvSource[] = {
	{ "name", -1, 0 },
	{ "optional", -1, 0 },
};
static const struct qf_api_jobfield f_core_SecretEnvSource[] = {
	{ "name", -1, 0 },
	{ "optional", -1, 0 },
};
static const struct qf_api_jobfield f_core_EnvVarSource[] = {
	{ "configMapKeyRef", 107, 0 },
	{ "fieldRef", 99, 0 },
	{ "resourceFieldRef", 100, 0 },
	{ "secretKeyRef", 108, 0 },
};
static const struct qf_api_jobfield f_core_ExecAction[] = {
	{ "command", -1, 0 },
};
static const struct qf_api_jobfield f_core_HTTPGetAction[] = {
	{ "host", -1, 0 }, { "httpHeaders", 109, 1 }, { "path", -1, 0 },
	{ "port", -1, 0 }, { "scheme", -1, 0 },
};
static const struct qf_api_jobfield f_core_TCPSocketAction[] = {
	{ "host", -1, 0 },
	{ "port", -1, 0 },
};
static const struct qf_api_jobfield f_core_GRPCAction[] = {
	{ "port", -1, 0 },
	{ "service", -1, 0 },
};
static const struct qf_api_jobfield f_core_LifecycleHandler[] = {
	{ "exec", 89, 0 },
	{ "httpGet", 90, 0 },
	{ "sleep", 110, 0 },
	{ "tcpSocket", 91, 0 },
};
static const struct qf_api_jobfield f_core_Capabilities[] = {
	{ "add", -1, 0 },
	{ "drop", -1, 0 },
};
static const struct qf_api_jobfield f_core_NodeSelector[] = {
	{ "nodeSelectorTerms", 111, 1 },
};
static const struct qf_api_jobfield f_core_PreferredSchedulingTerm[] = {
	{ "preference", 111, 0 },
	{ "weight", -1, 0 },
};
static const struct qf_api_jobfield f_core_PodAffinityTerm[] = {
	{ "labelSelector", 8, 0 },      { "matchLabelKeys", -1, 0 },
	{ "mismatchLabelKeys", -1, 0 }, { "namespaceSelector", 8, 0 },
	{ "namespaces", -1, 0 },        { "topologyKey", -1, 0 },
};
static const struct qf_api_jobfield f_core_WeightedPodAffinityTerm[] = {
	{ "podAffinityTerm", 97, 0 },
	{ "weight", -1, 0 },
};
static const struct qf_api_jobfield f_core_ObjectFieldSelector[] = {
	{ "apiVersion", -1, 0 },
	{ "fieldPath", -1, 0 },
};
static const struct qf_api_jobfield f_core_ResourceFieldSelector[] = {
	{ "containerName", -1, 0 },
	{ "divisor", -1, 0 },
	{ "resource", -1, 0 },
};
static const struct qf_api_jobfield f_core_SecretProjection[] = {
	{ "items", 82, 1 },
	{ "name", -1, 0 },
	{ "optional", -1, 0 },
};
static const struct qf_api_jobfield f_core_DownwardAPIProjection[] = {
	{ "items", 83, 1 },
};
static const struct qf_api_jobfield f_core_ConfigMapProjection[] = {
	{ "items", 82, 1 },
	{ "name", -1, 0 },
	{ "optional", -1, 0 },
};
static const struct qf_api_jobfield f_core_ServiceAccountTokenProjection[] = {
	{ "audience", -1, 0 },
	{ "expirationSeconds", -1, 0 },
	{ "path", -1, 0 },
};
static const struct qf_api_jobfield f_core_ClusterTrustBundleProjection[] = {
	{ "labelSelector", 8, 0 }, { "name", -1, 0 },
	{ "optional", -1, 0 },     { "path", -1, 0 },
	{ "signerName", -1, 0 },
};
static const struct qf_api_jobfield f_core_PersistentVolumeClaimSpec[] = {
	{ "accessModes", -1, 0 },
	{ "dataSource", 113, 0 },
	{ "dataSourceRef", 114, 0 },
	{ "resources", 112, 0 },
	{ "selector", 8, 0 },
	{ "storageClassName", -1, 0 },
	{ "volumeAttributesClassName", -1, 0 },
	{ "volumeMode", -1, 0 },
	{ "volumeName", -1, 0 },
};
static const struct qf_api_jobfield f_core_ConfigMapKeySelector[] = {
	{ "key", -1, 0 },
	{ "name", -1, 0 },
	{ "optional", -1, 0 },
};
static const struct qf_api_jobfield f_core_SecretKeySelector[] = {
	{ "key", -1, 0 },
	{ "name", -1, 0 },
	{ "optional", -1, 0 },
};
static const struct qf_api_jobfield f_core_HTTPHeader[] = {
	{ "name", -1, 0 },
	{ "value", -1, 0 },
};
static const struct qf_api_jobfield f_core_SleepAction[] = {
	{ "seconds", -1, 0 },
};
static const struct qf_api_jobfield f_core_NodeSelectorTerm[] = {
	{ "matchExpressions", 115, 1 },
	{ "matchFields", 115, 1 },
};
static const struct qf_api_jobfield f_core_VolumeResourceRequirements[] = {
	{ "limits", -1, 0 },
	{ "requests", -1, 0 },
};
static const struct qf_api_jobfield f_core_TypedLocalObjectReference[] = {
	{ "apiGroup", -1, 0 },
	{ "kind", -1, 0 },
	{ "name", -1, 0 },
};
static const struct qf_api_jobfield f_core_TypedObjectReference[] = {
	{ "apiGroup", -1, 0 },
	{ "kind", -1, 0 },
	{ "name", -1, 0 },
	{ "namespace", -1, 0 },
};
static const struct qf_api_jobfield f_core_NodeSelectorRequirement[] = {
	{ "key", -1, 0 },
	{ "operator", -1, 0 },
	{ "values", -1, 0 },
};

const struct qf_api_jobshape qf_api_jobshapes[] = {
	{ "batch.Job", f_batch_Job, QF_ARRAY_SIZE(f_batch_Job) },
	{ "meta.ObjectMeta", f_meta_ObjectMeta,
	  QF_ARRAY_SIZE(f_meta_ObjectMeta) },
	{ "batch.JobSpec", f_batch_JobSpec, QF_ARRAY_SIZE(f_batch_JobSpec) },
	{ "batch.JobStatus", f_batch_JobStatus,
	  QF_ARRAY_SIZE(f_batch_JobStatus) },
	{ "meta.OwnerReference", f_meta_OwnerReference,
	  QF_ARRAY_SIZE(f_meta_OwnerReference) },
	{ "meta.ManagedFieldsEntry", f_meta_ManagedFieldsEntry,
	  QF_ARRAY_SIZE(f_meta_ManagedFieldsEntry) },
	{ "batch.PodFailurePolicy", f_batch_PodFailurePolicy,
	  QF_ARRAY_SIZE(f_batch_PodFailurePolicy) },
	{ "batch.SuccessPolicy", f_batch_SuccessPolicy,
	  QF_ARRAY_SIZE(f_batch_SuccessPolicy) },
	{ "meta.LabelSelector", f_meta_LabelSelector,
	  QF_ARRAY_SIZE(f_meta_LabelSelector) },
	{ "core.PodTemplateSpec", f_core_PodTemplateSpec,
	  QF_ARRAY_SIZE(f_core_PodTemplateSpec) },
	{ "batch.JobCondition", f_batch_JobCondition,
	  QF_ARRAY_SIZE(f_batch_JobCondition) },
	{ "batch.UncountedTerminatedPods", f_batch_UncountedTerminatedPods,
	  QF_ARRAY_SIZE(f_batch_UncountedTerminatedPods) },
	{ "batch.PodFailurePolicyRule", f_batch_PodFailurePolicyRule,
	  QF_ARRAY_SIZE(f_batch_PodFailurePolicyRule) },
	{ "batch.SuccessPolicyRule", f_batch_SuccessPolicyRule,
	  QF_ARRAY_SIZE(f_batch_SuccessPolicyRule) },
	{ "meta.LabelSelectorRequirement", f_meta_LabelSelectorRequirement,
	  QF_ARRAY_SIZE(f_meta_LabelSelectorRequirement) },
	{ "core.PodSpec", f_core_PodSpec, QF_ARRAY_SIZE(f_core_PodSpec) },
	{ "batch.PodFailurePolicyOnExitCodesRequirement",
	  f_batch_PodFailurePolicyOnExitCodesRequirement,
	  QF_ARRAY_SIZE(f_batch_PodFailurePolicyOnExitCodesRequirement) },
	{ "batch.PodFailurePolicyOnPodConditionsPattern",
	  f_batch_PodFailurePolicyOnPodConditionsPattern,
	  QF_ARRAY_SIZE(f_batch_PodFailurePolicyOnPodConditionsPattern) },
	{ "core.Volume", f_core_Volume, QF_ARRAY_SIZE(f_core_Volume) },
	{ "core.Container", f_core_Container, QF_ARRAY_SIZE(f_core_Container) },
	{ "core.EphemeralContainer", f_core_EphemeralContainer,
	  QF_ARRAY_SIZE(f_core_EphemeralContainer) },
	{ "core.PodSecurityContext", f_core_PodSecurityContext,
	  QF_ARRAY_SIZE(f_core_PodSecurityContext) },
	{ "core.LocalObjectReference", f_core_LocalObjectReference,
	  QF_ARRAY_SIZE(f_core_LocalObjectReference) },
	{ "core.Affinity", f_core_Affinity, QF_ARRAY_SIZE(f_core_Affinity) },
	{ "core.Toleration", f_core_Toleration,
	  QF_ARRAY_SIZE(f_core_Toleration) },
	{ "core.HostAlias", f_core_HostAlias, QF_ARRAY_SIZE(f_core_HostAlias) },
	{ "core.PodDNSConfig", f_core_PodDNSConfig,
	  QF_ARRAY_SIZE(f_core_PodDNSConfig) },
	{ "core.PodReadinessGate", f_core_PodReadinessGate,
	  QF_ARRAY_SIZE(f_core_PodReadinessGate) },
	{ "core.TopologySpreadConstraint", f_core_TopologySpreadConstraint,
	  QF_ARRAY_SIZE(f_core_TopologySpreadConstraint) },
	{ "core.PodOS", f_core_PodOS, QF_ARRAY_SIZE(f_core_PodOS) },
	{ "core.PodSchedulingGate", f_core_PodSchedulingGate,
	  QF_ARRAY_SIZE(f_core_PodSchedulingGate) },
	{ "core.PodResourceClaim", f_core_PodResourceClaim,
	  QF_ARRAY_SIZE(f_core_PodResourceClaim) },
	{ "core.ResourceRequirements", f_core_ResourceRequirements,
	  QF_ARRAY_SIZE(f_core_ResourceRequirements) },
	{ "core.HostPathVolumeSource", f_core_HostPathVolumeSource,
	  QF_ARRAY_SIZE(f_core_HostPathVolumeSource) },
	{ "core.EmptyDirVolumeSource", f_core_EmptyDirVolumeSource,
	  QF_ARRAY_SIZE(f_core_EmptyDirVolumeSource) },
	{ "core.GCEPersistentDiskVolumeSource",
	  f_core_GCEPersistentDiskVolumeSource,
	  QF_ARRAY_SIZE(f_core_GCEPersistentDiskVolumeSource) },
	{ "core.AWSElasticBlockStoreVolumeSource",
	  f_core_AWSElasticBlockStoreVolumeSource,
	  QF_ARRAY_SIZE(f_core_AWSElasticBlockStoreVolumeSource) },
	{ "core.GitRepoVolumeSource", f_core_GitRepoVolumeSource,
	  QF_ARRAY_SIZE(f_core_GitRepoVolumeSource) },
	{ "core.SecretVolumeSource", f_core_SecretVolumeSource,
	  QF_ARRAY_SIZE(f_core_SecretVolumeSource) },
	{ "core.NFSVolumeSource", f_core_NFSVolumeSource,
	  QF_ARRAY_SIZE(f_core_NFSVolumeSource) },
	{ "core.ISCSIVolumeSource", f_core_ISCSIVolumeSource,
	  QF_ARRAY_SIZE(f_core_ISCSIVolumeSource) },
	{ "core.GlusterfsVolumeSource", f_core_GlusterfsVolumeSource,
	  QF_ARRAY_SIZE(f_core_GlusterfsVolumeSource) },
	{ "core.PersistentVolumeClaimVolumeSource",
	  f_core_PersistentVolumeClaimVolumeSource,
	  QF_ARRAY_SIZE(f_core_PersistentVolumeClaimVolumeSource) },
	{ "core.RBDVolumeSource", f_core_RBDVolumeSource,
	  QF_ARRAY_SIZE(f_core_RBDVolumeSource) },
	{ "core.FlexVolumeSource", f_core_FlexVolumeSource,
	  QF_ARRAY_SIZE(f_core_FlexVolumeSource) },
	{ "core.CinderVolumeSource", f_core_CinderVolumeSource,
	  QF_ARRAY_SIZE(f_core_CinderVolumeSource) },
	{ "core.CephFSVolumeSource", f_core_CephFSVolumeSource,
	  QF_ARRAY_SIZE(f_core_CephFSVolumeSource) },
	{ "core.FlockerVolumeSource", f_core_FlockerVolumeSource,
	  QF_ARRAY_SIZE(f_core_FlockerVolumeSource) },
	{ "core.DownwardAPIVolumeSource", f_core_DownwardAPIVolumeSource,
	  QF_ARRAY_SIZE(f_core_DownwardAPIVolumeSource) },
	{ "core.FCVolumeSource", f_core_FCVolumeSource,
	  QF_ARRAY_SIZE(f_core_FCVolumeSource) },
	{ "core.AzureFileVolumeSource", f_core_AzureFileVolumeSource,
	  QF_ARRAY_SIZE(f_core_AzureFileVolumeSource) },
	{ "core.ConfigMapVolumeSource", f_core_ConfigMapVolumeSource,
	  QF_ARRAY_SIZE(f_core_ConfigMapVolumeSource) },
	{ "core.VsphereVirtualDiskVolumeSource",
	  f_core_VsphereVirtualDiskVolumeSource,
	  QF_ARRAY_SIZE(f_core_VsphereVirtualDiskVolumeSource) },
	{ "core.QuobyteVolumeSource", f_core_QuobyteVolumeSource,
	  QF_ARRAY_SIZE(f_core_QuobyteVolumeSource) },
	{ "core.AzureDiskVolumeSource", f_core_AzureDiskVolumeSource,
	  QF_ARRAY_SIZE(f_core_AzureDiskVolumeSource) },
	{ "core.PhotonPersistentDiskVolumeSource",
	  f_core_PhotonPersistentDiskVolumeSource,
	  QF_ARRAY_SIZE(f_core_PhotonPersistentDiskVolumeSource) },
	{ "core.ProjectedVolumeSource", f_core_ProjectedVolumeSource,
	  QF_ARRAY_SIZE(f_core_ProjectedVolumeSource) },
	{ "core.PortworxVolumeSource", f_core_PortworxVolumeSource,
	  QF_ARRAY_SIZE(f_core_PortworxVolumeSource) },
	{ "core.ScaleIOVolumeSource", f_core_ScaleIOVolumeSource,
	  QF_ARRAY_SIZE(f_core_ScaleIOVolumeSource) },
	{ "core.StorageOSVolumeSource", f_core_StorageOSVolumeSource,
	  QF_ARRAY_SIZE(f_core_StorageOSVolumeSource) },
	{ "core.CSIVolumeSource", f_core_CSIVolumeSource,
	  QF_ARRAY_SIZE(f_core_CSIVolumeSource) },
	{ "core.EphemeralVolumeSource", f_core_EphemeralVolumeSource,
	  QF_ARRAY_SIZE(f_core_EphemeralVolumeSource) },
	{ "core.ImageVolumeSource", f_core_ImageVolumeSource,
	  QF_ARRAY_SIZE(f_core_ImageVolumeSource) },
	{ "core.ContainerPort", f_core_ContainerPort,
	  QF_ARRAY_SIZE(f_core_ContainerPort) },
	{ "core.EnvFromSource", f_core_EnvFromSource,
	  QF_ARRAY_SIZE(f_core_EnvFromSource) },
	{ "core.EnvVar", f_core_EnvVar, QF_ARRAY_SIZE(f_core_EnvVar) },
	{ "core.ContainerResizePolicy", f_core_ContainerResizePolicy,
	  QF_ARRAY_SIZE(f_core_ContainerResizePolicy) },
	{ "core.VolumeMount", f_core_VolumeMount,
	  QF_ARRAY_SIZE(f_core_VolumeMount) },
	{ "core.VolumeDevice", f_core_VolumeDevice,
	  QF_ARRAY_SIZE(f_core_VolumeDevice) },
	{ "core.Probe", f_core_Probe, QF_ARRAY_SIZE(f_core_Probe) },
	{ "core.Lifecycle", f_core_Lifecycle, QF_ARRAY_SIZE(f_core_Lifecycle) },
	{ "core.SecurityContext", f_core_SecurityContext,
	  QF_ARRAY_SIZE(f_core_SecurityContext) },
	{ "core.SELinuxOptions", f_core_SELinuxOptions,
	  QF_ARRAY_SIZE(f_core_SELinuxOptions) },
	{ "core.WindowsSecurityContextOptions",
	  f_core_WindowsSecurityContextOptions,
	  QF_ARRAY_SIZE(f_core_WindowsSecurityContextOptions) },
	{ "core.Sysctl", f_core_Sysctl, QF_ARRAY_SIZE(f_core_Sysctl) },
	{ "core.SeccompProfile", f_core_SeccompProfile,
	  QF_ARRAY_SIZE(f_core_SeccompProfile) },
	{ "core.AppArmorProfile", f_core_AppArmorProfile,
	  QF_ARRAY_SIZE(f_core_AppArmorProfile) },
	{ "core.NodeAffinity", f_core_NodeAffinity,
	  QF_ARRAY_SIZE(f_core_NodeAffinity) },
	{ "core.PodAffinity", f_core_PodAffinity,
	  QF_ARRAY_SIZE(f_core_PodAffinity) },
	{ "core.PodAntiAffinity", f_core_PodAntiAffinity,
	  QF_ARRAY_SIZE(f_core_PodAntiAffinity) },
	{ "core.PodDNSConfigOption", f_core_PodDNSConfigOption,
	  QF_ARRAY_SIZE(f_core_PodDNSConfigOption) },
	{ "core.ResourceClaim", f_core_ResourceClaim,
	  QF_ARRAY_SIZE(f_core_ResourceClaim) },
	{ "core.KeyToPath", f_core_KeyToPath, QF_ARRAY_SIZE(f_core_KeyToPath) },
	{ "core.DownwardAPIVolumeFile", f_core_DownwardAPIVolumeFile,
	  QF_ARRAY_SIZE(f_core_DownwardAPIVolumeFile) },
	{ "core.VolumeProjection", f_core_VolumeProjection,
	  QF_ARRAY_SIZE(f_core_VolumeProjection) },
	{ "core.PersistentVolumeClaimTemplate",
	  f_core_PersistentVolumeClaimTemplate,
	  QF_ARRAY_SIZE(f_core_PersistentVolumeClaimTemplate) },
	{ "core.ConfigMapEnvSource", f_core_ConfigMapEnvSource,
	  QF_ARRAY_SIZE(f_core_ConfigMapEnvSource) },
	{ "core.SecretEnvSource", f_core_SecretEnvSource,
	  QF_ARRAY_SIZE(f_core_SecretEnvSource) },
	{ "core.EnvVarSource", f_core_EnvVarSource,
	  QF_ARRAY_SIZE(f_core_EnvVarSource) },
	{ "core.ExecAction", f_core_ExecAction,
	  QF_ARRAY_SIZE(f_core_ExecAction) },
	{ "core.HTTPGetAction", f_core_HTTPGetAction,
	  QF_ARRAY_SIZE(f_core_HTTPGetAction) },
	{ "core.TCPSocketAction", f_core_TCPSocketAction,
	  QF_ARRAY_SIZE(f_core_TCPSocketAction) },
	{ "core.GRPCAction", f_core_GRPCAction,
	  QF_ARRAY_SIZE(f_core_GRPCAction) },
	{ "core.LifecycleHandler", f_core_LifecycleHandler,
	  QF_ARRAY_SIZE(f_core_LifecycleHandler) },
	{ "core.Capabilities", f_core_Capabilities,
	  QF_ARRAY_SIZE(f_core_Capabilities) },
	{ "core.NodeSelector", f_core_NodeSelector,
	  QF_ARRAY_SIZE(f_core_NodeSelector) },
	{ "core.PreferredSchedulingTerm", f_core_PreferredSchedulingTerm,
	  QF_ARRAY_SIZE(f_core_PreferredSchedulingTerm) },
	{ "core.PodAffinityTerm", f_core_PodAffinityTerm,
	  QF_ARRAY_SIZE(f_core_PodAffinityTerm) },
	{ "core.WeightedPodAffinityTerm", f_core_WeightedPodAffinityTerm,
	  QF_ARRAY_SIZE(f_core_WeightedPodAffinityTerm) },
	{ "core.ObjectFieldSelector", f_core_ObjectFieldSelector,
	  QF_ARRAY_SIZE(f_core_ObjectFieldSelector) },
	{ "core.ResourceFieldSelector", f_core_ResourceFieldSelector,
	  QF_ARRAY_SIZE(f_core_ResourceFieldSelector) },
	{ "core.SecretProjection", f_core_SecretProjection,
	  QF_ARRAY_SIZE(f_core_SecretProjection) },
	{ "core.DownwardAPIProjection", f_core_DownwardAPIProjection,
	  QF_ARRAY_SIZE(f_core_DownwardAPIProjection) },
	{ "core.ConfigMapProjection", f_core_ConfigMapProjection,
	  QF_ARRAY_SIZE(f_core_ConfigMapProjection) },
	{ "core.ServiceAccountTokenProjection",
	  f_core_ServiceAccountTokenProjection,
	  QF_ARRAY_SIZE(f_core_ServiceAccountTokenProjection) },
	{ "core.ClusterTrustBundleProjection",
	  f_core_ClusterTrustBundleProjection,
	  QF_ARRAY_SIZE(f_core_ClusterTrustBundleProjection) },
	{ "core.PersistentVolumeClaimSpec", f_core_PersistentVolumeClaimSpec,
	  QF_ARRAY_SIZE(f_core_PersistentVolumeClaimSpec) },
	{ "core.ConfigMapKeySelector", f_core_ConfigMapKeySelector,
	  QF_ARRAY_SIZE(f_core_ConfigMapKeySelector) },
	{ "core.SecretKeySelector", f_core_SecretKeySelector,
	  QF_ARRAY_SIZE(f_core_SecretKeySelector) },
	{ "core.HTTPHeader", f_core_HTTPHeader,
	  QF_ARRAY_SIZE(f_core_HTTPHeader) },
	{ "core.SleepAction", f_core_SleepAction,
	  QF_ARRAY_SIZE(f_core_SleepAction) },
	{ "core.NodeSelectorTerm", f_core_NodeSelectorTerm,
	  QF_ARRAY_SIZE(f_core_NodeSelectorTerm) },
	{ "core.VolumeResourceRequirements", f_core_VolumeResourceRequirements,
	  QF_ARRAY_SIZE(f_core_VolumeResourceRequirements) },
	{ "core.TypedLocalObjectReference", f_core_TypedLocalObjectReference,
	  QF_ARRAY_SIZE(f_core_TypedLocalObjectReference) },
	{ "core.TypedObjectReference", f_core_TypedObjectReference,
	  QF_ARRAY_SIZE(f_core_TypedObjectReference) },
	{ "core.NodeSelectorRequirement", f_core_NodeSelectorRequirement,
	  QF_ARRAY_SIZE(f_core_NodeSelectorRequirement) },
};
const size_t qf_api_njobshapes = QF_ARRAY_SIZE(qf_api_jobshapes);
